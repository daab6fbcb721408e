/**
 * How the beacons module reaches the running minion's beacons (Salt's `manage_beacons` event
 * and its `..._complete` answer): over the job-process link the schedule module uses, with
 * `target: 'beacons'`. Undefined where no minion serves it (salt-call --local, a timeout).
 */
import type { ExecContext } from '../kernel/index.js';

export type Ret = Record<string, unknown>;

export async function manageBeacons(ctx: ExecContext, call: Ret): Promise<Ret | undefined> {
  const serve = ctx.master?.manageSchedule;
  if (!serve) return undefined;
  try {
    return await serve({ ...call, target: 'beacons' });
  } catch (err) {
    ctx.log.warn({ err: (err as Error).message }, 'the minion did not answer the beacons call');
    return undefined;
  }
}

/** Salt's `default_event_wait` message when no complete event arrives. */
export const noAnswer = (what: string, timeout: unknown): string =>
  `Did not receive the ${what} complete event before the timeout of ${String(timeout ?? 60)}s`;
