/**
 * Sequence numbers that let a subscriber count the events it missed.
 *
 * The publisher (an XPUB socket) sees every tag prefix subscribed and keeps one counter per
 * prefix: each frame it publishes is followed by a second part, `packIpc({prefix: seq})`
 * for the prefixes the tag matches. A subscriber keeps the last number seen per prefix it
 * subscribed to; a jump of n+1 means n events matching that prefix never reached it
 * (ZeroMQ dropped them because its queue was full). The first part stays Salt's event body.
 */
import { packIpc, unpackIpc } from '../serial/index.js';

interface Counter {
  prefix: string;
  bytes: Buffer;
  subscribers: number;
  seq: number;
}

/** The publisher's side: subscriptions as XPUB reports them, and their counters. */
export class SubscriptionCounters {
  readonly #counters = new Map<string, Counter>();

  /** An XPUB subscription message: first byte 1 (subscribe) or 0 (unsubscribe), then the prefix. */
  onSubscription(msg: Buffer): void {
    if (msg.length === 0) return;
    const prefix = msg.subarray(1).toString('utf8');
    const c = this.#counters.get(prefix);
    if (msg[0] === 1) {
      if (c) c.subscribers++;
      else this.#counters.set(prefix, { prefix, bytes: Buffer.from(prefix, 'utf8'), subscribers: 1, seq: 0 });
    } else if (c) {
      c.subscribers--;
      if (c.subscribers <= 0) this.#counters.delete(prefix);
    }
  }

  /** Counts `frame` for every prefix it matches; the second part to send with it. */
  stamp(frame: Buffer): Buffer {
    const seqs: Record<string, number> = {};
    let any = false;
    for (const c of this.#counters.values()) {
      const n = c.bytes.length;
      if (frame.length >= n && (n === 0 || frame.compare(c.bytes, 0, n, 0, n) === 0)) {
        c.seq++;
        seqs[c.prefix] = c.seq;
        any = true;
      }
    }
    return any ? packIpc(seqs) : EMPTY;
  }

  /** `{prefix, subscribers, events}` for each live subscription (probes left out). */
  list(): Array<{ prefix: string; subscribers: number; events: number }> {
    return [...this.#counters.values()]
      .filter((c) => !c.prefix.startsWith('tsalt/probe/'))
      .map((c) => ({ prefix: c.prefix, subscribers: c.subscribers, events: c.seq }));
  }
}

const EMPTY = Buffer.alloc(0);

/** Reads a frame's second part; `undefined` when there is none or it is not ours. */
export function readSequence(part: Buffer | undefined): Record<string, number> | undefined {
  if (!part || part.length === 0) return undefined;
  try {
    const v = unpackIpc(part);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, number>) : undefined;
  } catch {
    return undefined;
  }
}

/** The subscriber's side: counts the gaps in the numbers of the prefixes it subscribed to. */
export class GapTracker {
  readonly #prefixes = new Set<string>();
  /** The prefixes no other of ours contains: a tag matches at most one of them. */
  #effective: string[] = [];
  readonly #last = new Map<string, number>();
  #received = 0;
  #missed = 0;

  constructor(prefixes: readonly string[] = []) {
    for (const p of prefixes) this.#prefixes.add(p);
    this.#recompute();
  }

  add(prefix: string): void {
    if (this.#prefixes.has(prefix)) return;
    this.#prefixes.add(prefix);
    this.#recompute();
  }

  delete(prefix: string): void {
    if (!this.#prefixes.delete(prefix)) return;
    this.#last.delete(prefix);
    this.#recompute();
  }

  #recompute(): void {
    const all = [...this.#prefixes];
    this.#effective = all.filter((p) => !all.some((q) => q !== p && p.startsWith(q)));
  }

  /**
   * Records one received frame's numbers; returns how many events it shows were missed.
   * `delivered` false: a frame the listener leaves out (a late probe echo), numbered but
   * not counted as received.
   */
  observe(seqs: Record<string, number> | undefined, delivered = true): number {
    if (delivered) this.#received++;
    if (!seqs) return 0;
    let missed = 0;
    for (const p of this.#effective) {
      const seq = seqs[p];
      if (typeof seq !== 'number') continue;
      const last = this.#last.get(p);
      // a lower number: the publisher restarted or the counter was renewed; start again
      if (last !== undefined && seq > last + 1) missed += seq - last - 1;
      this.#last.set(p, seq);
    }
    this.#missed += missed;
    return missed;
  }

  get received(): number {
    return this.#received;
  }

  get missed(): number {
    return this.#missed;
  }

  get prefixes(): string[] {
    return [...this.#prefixes];
  }
}
