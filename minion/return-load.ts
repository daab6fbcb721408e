/**
 * The `_return` load a minion sends the master for a finished job, in the field order of
 * Salt's minion (return.json): used by the minion daemon and the swarm's simulated minions.
 */
import { eventStamp } from '../kernel/bus/event-body.js';
import type { JobData } from './job-protocol.js';

export function buildReturnLoad(
  id: string,
  job: JobData,
  outcome: { return: unknown; retcode: unknown; success: unknown; out?: string },
): Record<string, unknown> {
  const load: Record<string, unknown> = {
    cmd: '_return',
    id,
    success: outcome.success,
    return: outcome.return,
    retcode: outcome.retcode,
    jid: job.jid,
    fun: job.fun,
    fun_args: job.arg,
  };
  if (job.user !== undefined) load.user = job.user;
  if (job.master_id !== undefined) load.master_id = job.master_id;
  if (job.metadata !== undefined) load.metadata = job.metadata;
  if (outcome.out !== undefined) load.out = outcome.out;
  load._stamp = eventStamp();
  return load;
}
