/**
 * The replay buffer on disk (`<cachedir>/publish_replay.p`, mode 0600), so that a restarted
 * publisher or master still replays the publishes of the last `publish_replay_seconds`. Records
 * are appended as they are published, each a 4-byte big-endian length and msgpack `{t, load}`;
 * the file is rewritten with only the live records when it has grown to twice their size. A torn
 * or corrupt tail (a crash mid-write) ends the reading.
 *
 * An append is one synchronous `write` to a descriptor kept open: a page-cache write of a few
 * hundred bytes takes microseconds, where `fs.promises.appendFile` took three trips through
 * libuv's thread pool (open, write, close: ~10 futex calls and three wake-ups of the event loop
 * per publish, 15-20 % of the publisher's CPU per job in a `perf` profile). A rewrite still runs
 * in the background; appends made meanwhile wait in memory and follow it into the new file.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
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
  /** Appends made while a rewrite is under way, written after it. */
  #pending: Buffer[] = [];
  /** Every rewrite, in order. */
  #chain: Promise<void> = Promise.resolve();
  #rewrites = 0;
  #fd: number | undefined;
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

  /** Appends a record: written now, or after the rewrite under way. */
  append(record: Buffer): void {
    if (this.#rewrites > 0) this.#pending.push(framed(record));
    else this.#write(framed(record));
  }

  /** Whether the file holds at least twice `liveBytes` (and enough to bother). */
  oversized(liveBytes: number): boolean {
    return this.#size > Math.max(MIN_REWRITE_BYTES, 2 * liveBytes);
  }

  /** Replaces the file with these records; appends from now on go after them. */
  rewrite(records: readonly Buffer[]): Promise<void> {
    const body = Buffer.concat(records.map(framed));
    this.#size = body.length; // no second rewrite is asked while this one waits
    this.#rewrites++;
    this.#chain = this.#chain.then(async () => {
      const tmp = `${this.path}.${process.pid}.tmp`;
      try {
        await writeFile(tmp, body, { mode: 0o600 });
        await rename(tmp, this.path);
      } catch (err) {
        this.#onError(err as Error);
      }
      // the descriptor is the replaced file's
      this.#close();
      if (--this.#rewrites === 0 && this.#pending.length > 0) {
        const chunk = Buffer.concat(this.#pending);
        this.#pending = [];
        this.#write(chunk);
      }
    });
    return this.#chain;
  }

  /** Removes the file (replay disabled). */
  async remove(): Promise<void> {
    await rm(this.path, { force: true }).catch(() => undefined);
  }

  /** Resolves once every appended record is written; the descriptor is closed (reopened by the next append). */
  async flush(): Promise<void> {
    await this.#chain;
    this.#close();
  }

  #write(chunk: Buffer): void {
    try {
      this.#fd ??= openSync(this.path, 'a', 0o600);
      for (let at = 0; at < chunk.length; ) at += writeSync(this.#fd, chunk, at);
      this.#size += chunk.length;
    } catch (err) {
      this.#close();
      this.#onError(err as Error);
    }
  }

  #close(): void {
    if (this.#fd === undefined) return;
    try {
      closeSync(this.#fd);
    } catch {
      // already gone
    }
    this.#fd = undefined;
  }
}
