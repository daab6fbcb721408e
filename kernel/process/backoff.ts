/**
 * Restart backoff for managed children: capped exponential delay, reset once a child has
 * stayed up long enough. The math is pure ({@link backoffDelay}, {@link nextFailureCount});
 * {@link RestartBackoff} adds the clock and the timer so it can be tested with fake timers.
 */

/** How long to wait before restarting a child that died. */
export interface BackoffPolicy {
  /** Delay before the first restart after a healthy run. */
  initialMs: number;
  /** Upper bound of the delay. */
  maxMs: number;
  /** A child that stayed up at least this long counts as healthy: the next delay starts over. */
  resetAfterMs: number;
}

/** 0.1 s doubling to 10 s; reset after 30 s of uptime. */
export const DEFAULT_BACKOFF: Readonly<BackoffPolicy> = Object.freeze({
  initialMs: 100,
  maxMs: 10_000,
  resetAfterMs: 30_000,
});

/**
 * Delay before restart number `failures + 1` of a run of consecutive failures:
 * `initialMs * 2^failures`, capped at `maxMs` (never below 0, never NaN).
 */
export function backoffDelay(policy: BackoffPolicy, failures: number): number {
  const initial = Math.max(0, policy.initialMs);
  const max = Math.max(initial, policy.maxMs);
  const n = Math.max(0, Math.floor(failures));
  // 2^n overflows to Infinity for huge n; Math.min caps it.
  return Math.min(max, initial * 2 ** Math.min(n, 1024));
}

/**
 * The consecutive-failure count to use for the next delay, given the count so far and how
 * long the child that just died had been up. A healthy run (uptime ≥ `resetAfterMs`) resets it.
 */
export function nextFailureCount(policy: BackoffPolicy, failures: number, uptimeMs: number): number {
  return uptimeMs >= policy.resetAfterMs ? 0 : failures;
}

/**
 * Per-child restart timer. Call {@link started} when a child is forked, {@link schedule}
 * when it died; the callback runs after the backoff delay unless {@link cancel} is called.
 */
export class RestartBackoff {
  readonly policy: Readonly<BackoffPolicy>;
  #failures = 0;
  #startedAt: number | undefined;
  #timer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor(policy: BackoffPolicy = DEFAULT_BACKOFF, now: () => number = Date.now) {
    this.policy = Object.freeze({ ...policy });
    this.#now = now;
  }

  /** Consecutive failures counted so far (0 after a healthy run). */
  get failures(): number {
    return this.#failures;
  }

  /** Whether a restart is waiting for its delay. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** Records that a child was just started (uptime is measured from here). */
  started(): void {
    this.#startedAt = this.#now();
  }

  /** Uptime of the current run in ms (0 if never started). */
  uptime(): number {
    return this.#startedAt === undefined ? 0 : Math.max(0, this.#now() - this.#startedAt);
  }

  /**
   * The child died: computes the delay, counts the failure and runs `restart` after it.
   * Returns the delay in ms. Replaces any restart already scheduled.
   */
  schedule(restart: () => void): number {
    this.cancel();
    this.#failures = nextFailureCount(this.policy, this.#failures, this.uptime());
    const delay = backoffDelay(this.policy, this.#failures);
    this.#failures += 1;
    this.#startedAt = undefined;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      restart();
    }, delay);
    return delay;
  }

  /** Drops a scheduled restart, if any. */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
