/**
 * A token bucket per key (a token, or a client address without one): `rate` requests per
 * second on average, bursts up to `burst`. Idle buckets are forgotten.
 */
export class RateLimiter {
  readonly #rate: number;
  readonly #burst: number;
  readonly #now: () => number;
  readonly #buckets = new Map<string, { tokens: number; at: number }>();

  /** `rate` 0 disables limiting. `now` is in milliseconds (tests pass a clock). */
  constructor(rate: number, burst: number, now: () => number = Date.now) {
    this.#rate = rate;
    this.#burst = Math.max(1, burst);
    this.#now = now;
  }

  /** Takes one request from `key`'s bucket: 0 when allowed, else the seconds to wait. */
  take(key: string): number {
    if (this.#rate <= 0) return 0;
    const now = this.#now();
    const b = this.#buckets.get(key) ?? { tokens: this.#burst, at: now };
    b.tokens = Math.min(this.#burst, b.tokens + ((now - b.at) / 1000) * this.#rate);
    b.at = now;
    this.#buckets.set(key, b);
    if (this.#buckets.size > 100_000) this.#sweep(now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - b.tokens) / this.#rate));
  }

  #sweep(now: number): void {
    const full = (this.#burst / this.#rate) * 1000;
    for (const [k, b] of this.#buckets) if (now - b.at > full) this.#buckets.delete(k);
  }
}
