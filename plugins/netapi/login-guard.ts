/**
 * Failed logins cost more and more: each client address and each username has a failure
 * count; past `freeFailures` within `windowSeconds`, every further failure bars that address
 * and that username for 1, 2, 4, ... seconds, up to `maxDelaySeconds`. A barred attempt is
 * refused without checking the password (and does not count). A success forgets the
 * username's failures (its owner knows the password), not the address's.
 *
 * Parallel guesses must not all start before the first failure lands, and parallel correct
 * logins (a CI farm behind one address) must not be refused: attempts past `freeFailures`
 * minus the failures so far (at least one) wait for those in flight to end, then go ahead
 * or meet the bar that their failures set. At most {@link MAX_WAITING} wait per key; more
 * are told to retry in a second.
 *
 * Keyed on what the client cannot choose freely (the TCP peer, see client-address.ts) and on
 * the username it attacks, never on a header it sends: a fresh `X-Auth-Token` per guess
 * used to give every guess its own rate-limit bucket (issue 27 item 13). Memory is bounded:
 * past {@link MAX_KEYS} keys, forgotten ones are swept, then the oldest.
 */

export interface LoginGuardOptions {
  /** Failures allowed before back-off starts. */
  freeFailures: number;
  /** The longest bar, seconds. */
  maxDelaySeconds: number;
  /** Seconds after its last failure that a key's count is forgotten. */
  windowSeconds: number;
}

/** Keys (addresses plus usernames) kept at most. */
export const MAX_KEYS = 100_000;

/** Attempts that may wait for a turn on one key. */
export const MAX_WAITING = 1000;

interface Entry {
  failures: number;
  last: number;
  barredUntil: number;
  inFlight: number;
  /** Attempts waiting for one in flight to end. */
  waiters: (() => void)[];
}

export class LoginGuard {
  readonly #opts: LoginGuardOptions;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();

  /** `now` is in milliseconds (tests pass a clock). */
  constructor(opts: LoginGuardOptions, now: () => number = Date.now) {
    this.#opts = opts;
    this.#now = now;
  }

  /**
   * Starts an attempt to log in as `user` from `address`: resolves with 0 when it may go
   * ahead (then {@link end} it), else with the whole seconds to wait.
   */
  async begin(address: string, user: string): Promise<number> {
    // each turn waits for an attempt in flight on a key to end, so this loop is bounded by them
    for (;;) {
      const now = this.#now();
      const entries = keysOf(address, user).map((k) => this.#current(k, now));
      let wait = 0;
      for (const e of entries)
        if (e.barredUntil > now) wait = Math.max(wait, Math.ceil((e.barredUntil - now) / 1000));
      if (wait > 0) return wait;
      const busy = entries.find((e) => e.inFlight >= Math.max(1, this.#opts.freeFailures - e.failures));
      if (!busy) {
        for (const e of entries) e.inFlight++;
        return 0;
      }
      if (busy.waiters.length >= MAX_WAITING) return 1;
      await new Promise<void>((resolve) => busy.waiters.push(resolve));
    }
  }

  /** Ends an attempt {@link begin} let go ahead: a failure counts, a success clears `user`. */
  end(address: string, user: string, ok: boolean): void {
    const now = this.#now();
    for (const key of keysOf(address, user)) {
      const e = this.#current(key, now);
      e.inFlight = Math.max(0, e.inFlight - 1);
      for (const wake of e.waiters.splice(0)) wake();
      if (ok) continue;
      e.failures++;
      e.last = now;
      const over = e.failures - this.#opts.freeFailures;
      if (over > 0)
        e.barredUntil = now + Math.min(this.#opts.maxDelaySeconds, 2 ** Math.min(over - 1, 30)) * 1000;
      this.#entries.delete(key); // re-inserted last: the Map's order is oldest failure first
      this.#entries.set(key, e);
    }
    if (ok) {
      const e = this.#entries.get(userKey(user));
      if (e) Object.assign(e, { failures: 0, barredUntil: 0 });
    }
    if (this.#entries.size > MAX_KEYS) this.#sweep(now);
  }

  /** The entry of `key`, its failures forgotten when the window has passed since the last. */
  #current(key: string, now: number): Entry {
    let e = this.#entries.get(key);
    if (!e) {
      e = { failures: 0, last: now, barredUntil: 0, inFlight: 0, waiters: [] };
      this.#entries.set(key, e);
    } else if (now - e.last > this.#opts.windowSeconds * 1000 && e.barredUntil <= now) {
      e.failures = 0;
    }
    return e;
  }

  #sweep(now: number): void {
    const window = this.#opts.windowSeconds * 1000;
    const idle = (e: Entry) => e.inFlight === 0 && e.waiters.length === 0 && e.barredUntil <= now;
    for (const [k, e] of this.#entries) if (idle(e) && now - e.last > window) this.#entries.delete(k);
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= MAX_KEYS) break;
      if (e.inFlight === 0 && e.waiters.length === 0) this.#entries.delete(k);
    }
  }
}

function userKey(user: string): string {
  return `user:${user}`;
}

function keysOf(address: string, user: string): [string, string] {
  return [`addr:${address}`, userKey(user)];
}
