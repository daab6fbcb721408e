/**
 * The publishes of the last `publish_replay_seconds`, kept for minions that (re)connect to the
 * publisher (no Salt counterpart: Salt's publisher sends each job once, and a minion that is
 * reconnecting at that moment never sees it). Bounded by age, count and bytes. A replay is the
 * publish as it went out (given a new serial and frame when the AES key changed since): the
 * minion matches the target itself, drops a serial at or below the last it accepted (Salt's
 * Crypticle replay check) and a jid it has already seen (its `minion_jid_queue_hwm` queue).
 */
import { packIpc, unpackIpc } from '../kernel/serial/index.js';
import { matchesTarget } from '../kernel/targeting/match.js';

/** At most this many publishes are kept. */
export const REPLAY_MAX_PUBLISHES = 1000;
/** At most this many bytes (encrypted frames and their records) are kept. */
export const REPLAY_MAX_BYTES = 64 * 1024 * 1024;
/**
 * At most this many publishes are replayed to one connection: Salt's default
 * `minion_jid_queue_hwm`, so that every replayed job a minion already ran is still in its queue.
 */
export const REPLAY_PER_CONNECTION = 100;

/** Target types the publisher can match on a minion id alone. */
const ID_TARGETS = new Set(['glob', 'list', 'pcre']);

/** A publish kept for replay, as the replaying publisher sees it. */
export interface ReplayItem {
  /** Publish order in this publisher (1, 2, ...). */
  readonly seq: number;
  readonly jid: string;
  readonly tgt: unknown;
  readonly tgtType: string;
  /** The frame to send (read when sent: a key rotation replaces it). */
  readonly envelope: Buffer;
}

interface Entry extends ReplayItem {
  /** When it was published (ms since the epoch). */
  t: number;
  /** The persisted record: msgpack `{t, load}`. */
  record: Buffer;
  /** The frame sent. */
  envelope: Buffer;
}

/** A past connection of a minion: the publishes it was sent live have `from < seq <= to`. */
export interface LiveSpan {
  from: number;
  to: number;
}

export class ReplayBuffer {
  readonly #windowMs: number;
  readonly #wrap: (load: Record<string, unknown>) => Buffer;
  #entries: Entry[] = [];
  #bytes = 0;
  #recordBytes = 0;
  #seq = 0;

  /** `wrap` encrypts (and signs) a load with the current AES key. */
  constructor(windowSeconds: number, wrap: (load: Record<string, unknown>) => Buffer) {
    this.#windowMs = windowSeconds * 1000;
    this.#wrap = wrap;
  }

  /** The last publish's order number. */
  get seq(): number {
    return this.#seq;
  }

  get size(): number {
    return this.#entries.length;
  }

  /**
   * Gives every publish kept a new serial (`next`) and frame: after an AES key change (serials
   * start again with a new key) or a publisher start (a minion accepts only a serial above the
   * last it accepted, and the publishes of a previous master carry another key's serials).
   */
  async reserial(next: () => Promise<number>): Promise<void> {
    let bytes = 0;
    let recordBytes = 0;
    for (const e of this.#entries) {
      const { t, load } = unpackIpc(e.record) as { t: number; load: Record<string, unknown> };
      load.serial = await next();
      e.record = packIpc({ t, load });
      e.envelope = this.#wrap(load);
      bytes += e.record.length + e.envelope.length;
      recordBytes += e.record.length;
    }
    this.#bytes = bytes;
    this.#recordBytes = recordBytes;
  }

  /** Keeps a publish: the load as sent (with its serial), its record and its frame. */
  add(load: Record<string, unknown>, record: Buffer, envelope: Buffer, t = Date.now()): void {
    const tgtType = typeof load.tgt_type === 'string' && load.tgt_type ? load.tgt_type : 'glob';
    const jid = typeof load.jid === 'string' ? load.jid : String(load.jid ?? '');
    this.#entries.push({ seq: ++this.#seq, jid, t, tgt: load.tgt, tgtType, record, envelope });
    this.#bytes += record.length + envelope.length;
    this.#recordBytes += record.length;
    this.prune(t);
  }

  /** Drops what is past the window or over the caps, oldest first. */
  prune(now = Date.now()): void {
    let drop = 0;
    let bytes = this.#bytes;
    let recordBytes = this.#recordBytes;
    const n = this.#entries.length;
    while (drop < n) {
      const e = this.#entries[drop] as Entry;
      if (e.t >= now - this.#windowMs && n - drop <= REPLAY_MAX_PUBLISHES && bytes <= REPLAY_MAX_BYTES) break;
      bytes -= e.record.length + e.envelope.length;
      recordBytes -= e.record.length;
      drop++;
    }
    if (drop === 0) return;
    this.#entries = this.#entries.slice(drop);
    this.#bytes = bytes;
    this.#recordBytes = recordBytes;
  }

  /** The records of the publishes kept, oldest first (to rewrite the file). */
  records(): Buffer[] {
    return this.#entries.map((e) => e.record);
  }

  /** The bytes the records take. */
  get recordBytes(): number {
    return this.#recordBytes;
  }

  /**
   * The frames to send a new connection of minion `id` (undefined: a minion that did not say
   * who it is): the publishes in the window whose target may include it, less those its last
   * connection was sent live, at most REPLAY_PER_CONNECTION, oldest first.
   */
  replayFor(id: string | undefined, last?: LiveSpan): Buffer[] {
    return this.pendingFor(id, last).map((e) => e.envelope);
  }

  /** As {@link replayFor}, the publishes themselves, only those after order number `after`. */
  pendingFor(id: string | undefined, last?: LiveSpan, after = 0): ReplayItem[] {
    this.prune();
    const out: Entry[] = [];
    for (let i = this.#entries.length - 1; i >= 0 && out.length < REPLAY_PER_CONNECTION; i--) {
      const e = this.#entries[i] as Entry;
      if (e.seq <= after) break;
      if (last && e.seq > last.from && e.seq <= last.to) continue;
      if (id !== undefined && ID_TARGETS.has(e.tgtType) && !safeMatch(id, e)) continue;
      out.push(e);
    }
    return out.reverse();
  }
}

function safeMatch(id: string, e: Entry): boolean {
  try {
    return matchesTarget(id, e.tgt, e.tgtType);
  } catch {
    return true;
  }
}
