/**
 * The jids a minion has seen recently (Salt's `jid_queue`, bounded by `minion_jid_queue_hwm`):
 * a publish whose jid is in it is a duplicate and is ignored.
 *
 * With a file, the queue outlives the process. A tsalt master replays the last
 * `publish_replay_seconds` of publishes to minions that (re)connect, from a file that outlives
 * the master too; a minion restarted with its master (one host rebooted, `npm start` stopped and
 * started) would otherwise run those jobs a second time. Salt's queue lives in memory, but
 * Salt's master replays nothing. Each new jid is appended at once, in one synchronous write of
 * a line (~2-4 µs of CPU: an asynchronous write, which wakes a thread of libuv's pool, cost ~3×
 * that in the minion's main thread and more in context switches); the file is rewritten with
 * the queue alone once it holds four times the bound.
 */
import { closeSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';

/** A jid as a publish carries it (Salt's are 20 digits; a caller may pick its own). */
const JID_LINE = /^[\w.:-]{1,128}$/;

export interface JidQueueFile {
  path: string;
  /** Told once when the file cannot be read or written; the queue then lives in memory. */
  onError(err: unknown): void;
}

export class JidQueue {
  readonly #max: number;
  readonly #seen = new Set<string>();
  readonly #file: JidQueueFile | undefined;
  #fd: number | undefined;
  #lines = 0;

  constructor(max: number, file?: JidQueueFile) {
    this.#max = Math.max(1, max);
    this.#file = file;
    if (!file) return;
    try {
      const kept = readFileSync(file.path, 'utf8')
        .split('\n')
        .filter((l) => JID_LINE.test(l));
      for (const jid of kept.slice(-this.#max)) this.#seen.add(jid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        this.#fail(err);
        return;
      }
    }
    this.#rewrite();
  }

  /** Adds a jid; false when it was already there. */
  add(jid: string): boolean {
    if (this.#seen.has(jid)) return false;
    this.#seen.add(jid);
    if (this.#seen.size > this.#max) {
      const oldest = this.#seen.values().next().value as string;
      this.#seen.delete(oldest);
    }
    if (this.#fd !== undefined && JID_LINE.test(jid)) this.#append(jid);
    return true;
  }

  /** Closes the file (the jids added are written first). */
  close(): void {
    if (this.#fd === undefined) return;
    this.#rewrite();
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
  }

  #append(jid: string): void {
    if (++this.#lines > 4 * this.#max) {
      this.#rewrite();
      return;
    }
    try {
      writeSync(this.#fd as number, `${jid}\n`);
    } catch (err) {
      this.#fail(err);
    }
  }

  /** Writes the queue alone to a new file, renamed over the old, and appends to it from then on. */
  #rewrite(): void {
    const file = this.#file;
    if (!file) return;
    try {
      const tmp = `${file.path}.tmp`;
      const jids = [...this.#seen].filter((j) => JID_LINE.test(j));
      writeFileSync(tmp, jids.length ? `${jids.join('\n')}\n` : '', { mode: 0o600 });
      renameSync(tmp, file.path);
      if (this.#fd !== undefined) closeSync(this.#fd);
      this.#fd = openSync(file.path, 'a', 0o600);
      this.#lines = jids.length;
    } catch (err) {
      this.#fail(err);
    }
  }

  #fail(err: unknown): void {
    if (this.#fd !== undefined) closeSync(this.#fd);
    this.#fd = undefined;
    this.#file?.onError(err);
  }
}
