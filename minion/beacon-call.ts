/**
 * What a beacon's `ctx.call` runs: an execution function as a local job through the minion's
 * executor (a job process where the function needs one, as a scheduled job), so a beacon such
 * as `pkg` or `service` asks `pkg.version` or `service.status` as Salt's do through `__salt__`.
 * Nothing is returned to the master, and the function gets no `__pub_*` keywords (a direct call).
 */
import type { BeaconContext } from '../kernel/beacons/define.js';
import { genJid } from '../kernel/jid.js';
import type { JobOutcome } from './execute-job.js';
import type { JobData } from './job-protocol.js';

/** A beacon's `call` over `run` (the executor's): rejects when the function fails. */
export function beaconCall(id: string, run: (job: JobData) => Promise<JobOutcome>): BeaconContext['call'] {
  return async (fun, args = [], kwargs = {}) => {
    const arg: unknown[] = [...args];
    if (Object.keys(kwargs).length > 0) arg.push({ ...kwargs, __kwarg__: true });
    const job = { jid: genJid(), fun, arg, tgt: id, tgt_type: 'glob', user: 'root', beacon_call: true };
    const outcome = await run(job);
    if (outcome.success === false) throw new Error(String(outcome.return));
    return outcome.return;
  };
}
