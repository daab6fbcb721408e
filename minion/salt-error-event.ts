/**
 * Salt's `_salt_error` event: when a job's function raises an exception Salt's minion does not
 * handle itself ("The minion function caused an exception"), `Minion._thread_return` fires a
 * packed `MinionError` on the minion's own bus under `_salt_error`
 * (`salt.utils.error.fire_exception`), and the minion forwards events so tagged to the master
 * (`Minion.handle_event`), where reactors can match them. Only a published single-function job
 * (or `startup_states`) fires it: Salt's multi-function jobs, scheduled jobs and beacons do not.
 */
import { fireOnOwnBus } from '../modules/_minion-bus.js';
import type { JobData } from './job-protocol.js';
import type { FunctionResult, RunEnv } from './run-function.js';

/** The tag Salt fires a minion's error events under. */
export const SALT_ERROR_TAG = '_salt_error';

/** What Salt's minion says of such an exception (its `MinionError`'s message). */
const MESSAGE = 'The minion function caused an exception';

/** A `SaltException`'s `pack()`: its message and its args. */
export function saltErrorData(): Record<string, unknown> {
  return { message: MESSAGE, args: [MESSAGE] };
}

/**
 * Fires `_salt_error` on the minion's own bus when `result` is an uncaught exception of `job`,
 * a job Salt's `_thread_return` runs. Never throws: a bus that is not there loses the event,
 * as Salt's fire does.
 */
export async function fireSaltErrorFor(env: RunEnv, job: JobData, result: FunctionResult): Promise<void> {
  if (result.failure?.kind !== 'uncaught') return;
  if (typeof job.fun !== 'string' || job.schedule !== undefined || job.beacon_call === true) return;
  try {
    await fireOnOwnBus(String(env.opts.sock_dir ?? ''), env.id, SALT_ERROR_TAG, saltErrorData());
  } catch (err) {
    env.log.debug({ err: (err as Error).message }, 'the _salt_error event could not be fired');
  }
}
