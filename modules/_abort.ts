/**
 * Cancellation helpers shared by execution modules: a job's `ctx.signal` is aborted when
 * the job is killed or times out.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { SALT_ERR_EXEC_COMMAND, SaltError } from '../kernel/errors.js';

/** The error to throw for an aborted job: the abort reason if it is a SaltError, else a clear one. */
export function abortError(signal: AbortSignal, what: string): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof SaltError) return reason;
  return new SALT_ERR_EXEC_COMMAND(`${what} was aborted`, { cause: reason });
}

// setTimeout caps its delay at 2^31-1 ms; longer sleeps go in steps.
const MAX_DELAY_MS = 2 ** 31 - 1;

/** Sleeps `ms` milliseconds, or rejects with {@link abortError} as soon as `signal` aborts. */
export async function abortableSleep(ms: number, signal: AbortSignal, what: string): Promise<void> {
  if (signal.aborted) throw abortError(signal, what);
  let left = Math.max(0, ms);
  do {
    const step = Math.min(left, MAX_DELAY_MS);
    try {
      await delay(step, undefined, { signal });
    } catch {
      throw abortError(signal, what);
    }
    left -= step;
  } while (left > 0);
}
