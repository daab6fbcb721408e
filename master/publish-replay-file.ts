/**
 * The replay buffer on disk (`<cachedir>/publish_replay.p`, mode 0600), so that a restarted
 * publisher or master still replays the publishes of the last `publish_replay_seconds`. Records
 * are appended as they are published (one write at a time, coalesced), each a 4-byte big-endian
 * length and msgpack `{t, load}`; the file is rewritten with only the live records when it has
 * grown to twice their size. A torn or corrupt tail (a crash mid-write) ends the reading.
 */
import { appendFile, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { unpackIpc } from '../kernel/serial/index.js';

export interface ReplayRecord {
  t: number;
  load: Record<string, unknown>;
  /** The record's bytes as stored (without the length). */
  raw: Buffer;
}

/** Grows the file to at least this before a rewrite is worth it. */
const MIN_REWRITE_BYTES = 1024 * 1024;

function framed(record: Buffer): Buffer {
  const head = Buffer.allocUnsafe(4);
  head.writeUInt32BE(record.length, 0);
  return Buffer.concat([head, record]);
}

export class ReplayFile {
  readonly path: string;
  readonly #onError: (err: Error) => void;
  #pending: Buffer[] = [];
  /** Every write, in order: appends and rewrites never overlap. */
  #chain: Promise<void> = Promise.resolve();
  #drainQueued = false;
  #size = 0;

  constructor(cachedir: string, onError: (err: Error) => void) {
    this.path = join(cachedir, 'publish_replay.p');
    this.#onError = onError;
  }

  /** The records published since `sinceMs`, oldest first; none when the file is missing. */
  async read(sinceMs: number): Promise<ReplayRecord[]> {
    let buf: Buffer;
    try {
      buf = await readFile(this.path);
    } catch {
      return [];
    }
    const out: ReplayRecord[] = [];
    for (let at = 0; at + 4 <= buf.length; ) {
      const len = buf.readUInt32BE(at);
      if (at + 4 + len > buf.length) break;
      const raw = buf.subarray(at + 4, at + 4 + len);
      at += 4 + len;
      let rec: unknown;
      try {
        rec = unpackIpc(raw);
      } catch {
        break;
      }
      const { t, load } = (rec ?? {}) as { t?: unknown; load?: unknown };
      if (typeof t !== 'number' || typeof load !== 'object' || load === null) break;
      if (t >= sinceMs) out.push({ t, load: load as Record<string, unknown>, raw: Buffer.from(raw) });
    }
    return out;
  }

  /** Appends a record (written in the background, after those before it). */
  append(record: Buffer): void {
    this.#pending.push(framed(record));
    if (this.#drainQueued) return;
    this.#drainQueued = true;
    this.#chain = this.#chain.then(() => this.#drain());
  }

  /** Whether the file holds at least twice `liveBytes` (and enough to bother). */
  oversized(liveBytes: number): boolean {
    return this.#size > Math.max(MIN_REWRITE_BYTES, 2 * liveBytes);
  }

  /** Replaces the file with these records, after the writes already queued. */
  rewrite(records: readonly Buffer[]): Promise<void> {
    const body = Buffer.concat(records.map(framed));
    this.#size = body.length; // no second rewrite is asked while this one waits
    this.#chain = this.#chain.then(async () => {
      const tmp = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, body, { mode: 0o600 });
        await rename(tmp, this.path);
      } catch (err) {
        this.#onError(err as Error);
      }
    });
    return this.#chain;
  }

  /** Removes the file (replay disabled). */
  async remove(): Promise<void> {
    await rm(this.path, { force: true }).catch(() => undefined);
  }

  /** Resolves once every appended record is written. */
  async flush(): Promise<void> {
    await this.#chain;
  }

  async #drain(): Promise<void> {
    this.#drainQueued = false;
    if (this.#pending.length === 0) return;
    const chunk = Buffer.concat(this.#pending);
    this.#pending = [];
    try {
      await appendFile(this.path, chunk, { mode: 0o600 });
      this.#size += chunk.length;
    } catch (err) {
      this.#onError(err as Error);
    }
  }
}
