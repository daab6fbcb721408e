/**
 * The jids a minion has seen recently (Salt's `jid_queue`, bounded by `minion_jid_queue_hwm`):
 * a publish whose jid is in it is a duplicate and is ignored.
 */
export class JidQueue {
  readonly #max: number;
  readonly #seen = new Set<string>();

  constructor(max: number) {
    this.#max = Math.max(1, max);
  }

  /** Adds a jid; false when it was already there. */
  add(jid: string): boolean {
    if (this.#seen.has(jid)) return false;
    this.#seen.add(jid);
    if (this.#seen.size > this.#max) {
      const oldest = this.#seen.values().next().value as string;
      this.#seen.delete(oldest);
    }
    return true;
  }
}
