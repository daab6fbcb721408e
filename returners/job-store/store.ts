/**
 * One job store file as a process uses it: its connection (store-file.ts), its group commit
 * (write-queue.ts) and the writes kept in memory while the file cannot be written.
 *
 * Jobs must keep running when the store cannot take a write (disk full, folder gone or
 * read-only, a damaged file that may not be moved aside, another process holding the lock past
 * `busy_timeout`), as with the `postgres` and `redis` returners when their server is down: such
 * a write is kept in a bounded buffer (`job_store.buffer_size`, the oldest dropped past it, with
 * the count logged) and tried again every `job_store.retry_interval` seconds, in order, and the
 * caller goes on. With `buffer_size: 0` the failure is thrown instead. Writes made again after
 * the file was deleted or replaced (write-queue.ts) that fail are kept the same way.
 */
import type Database from 'better-sqlite3';
import { SALT_ERR_JOB_DUPLICATE_RETURN, type UnitLogger } from '../../kernel/index.js';
import { reasonOf, WriteBuffer } from '../_write-buffer.js';
import { SALT_ERR_JOB_STORE } from './errors.js';
import { isCorrupt, isUnwritable } from './failures.js';
import { type StoreSettings, storeError } from './schema.js';
import { StoreFile } from './store-file.js';
import { VERIFY_MS, WriteQueue } from './write-queue.js';

/** What {@link JobStore.keep} resolves with when the write was kept in memory, not committed. */
export const KEPT: unique symbol = Symbol('kept in memory');

type Op<T> = (db: Database.Database) => T;

interface KeptWrite {
  /** The returner method that made it, for log lines. */
  method: string;
  op: Op<unknown>;
}

export class JobStore {
  readonly file: StoreFile;
  readonly #queue: WriteQueue;
  readonly #buffer: WriteBuffer<KeptWrite>;

  constructor(
    readonly settings: StoreSettings,
    private readonly log: UnitLogger,
  ) {
    const { path } = settings;
    this.file = new StoreFile(settings, log);
    this.#queue = new WriteQueue(this.file, path, settings.busyTimeoutMs, {
      replaced: (kind, count) =>
        log.error(
          { path, kind, rewritten: count },
          `job store ${path} was ${kind} while open: what it held is gone from it; the store now at that path takes the writes, and the ${count} write(s) of the last ${VERIFY_MS} ms are made there again`,
        ),
      lost: (op, err) => {
        if (isUnwritable(err)) this.#keep({ method: 'rewrite', op }, err);
        else if (!(err instanceof SALT_ERR_JOB_DUPLICATE_RETURN))
          log.error({ path, err: reasonOf(err) }, `job store ${path}: a write made again failed`);
      },
    });
    this.#buffer = new WriteBuffer<KeptWrite>({
      store: `job store ${path}`,
      max: settings.bufferSize,
      retryMs: settings.retryMs,
      log,
      isDown: isUnwritable,
      write: async (w) => {
        await this.#queue.run(w.op);
      },
    });
  }

  /** Writes kept in memory now. */
  get kept(): number {
    return this.#buffer.size;
  }

  /**
   * A write that may wait: committed (its result), or kept in memory while the store cannot be
   * written ({@link KEPT}). Thrown: a write refused for itself (a duplicate return), and any
   * failure with `buffer_size: 0`.
   */
  async keep<T>(method: string, op: Op<T>): Promise<T | typeof KEPT> {
    if (this.#buffer.size > 0 && this.settings.bufferSize > 0) {
      // behind the ones kept already, in order
      this.#buffer.push({ method, op });
      return KEPT;
    }
    try {
      return await this.#queue.run(op);
    } catch (err) {
      if (this.settings.bufferSize === 0 || !isUnwritable(err)) throw err;
      this.#keep({ method, op }, err);
      return KEPT;
    }
  }

  #keep(w: KeptWrite, err: unknown): void {
    if (this.#buffer.size === 0) {
      const { path, bufferSize, retryMs } = this.settings;
      // SALT_ERR_JOB_STORE names the file already: say what SQLite or the system said
      const why = reasonOf(err instanceof SALT_ERR_JOB_STORE && err.cause instanceof Error ? err.cause : err);
      this.log.error(
        { path, method: w.method, err: why, buffer_size: bufferSize },
        `job store ${path} cannot be written (${why}): writes are kept in memory (at most ${bufferSize}, the oldest dropped past that) and tried again every ${retryMs / 1000} s`,
      );
    }
    this.#buffer.push(w);
  }

  /** A write that does not wait (maintenance): failures are thrown. */
  write<T>(op: Op<T>): Promise<T> {
    return this.#queue.run(op);
  }

  /** A read on this process's connection, after the writes kept in memory (when they can go). */
  async read<T>(op: Op<T>): Promise<T> {
    if (this.#buffer.size > 0) await this.#buffer.flush();
    this.#queue.verify();
    this.#queue.fullTimeout();
    try {
      return op(this.file.db());
    } catch (err) {
      if (isCorrupt(err)) this.file.suspect(err);
      throw storeError(this.settings.path, err);
    }
  }

  /** Commits what is queued (waiting for the lock), makes one more try of what is kept, closes. */
  async close(): Promise<void> {
    this.#queue.flush({ wait: true });
    this.#queue.verify({ wait: true });
    if (this.#buffer.size > 0) await this.#buffer.flush();
    this.#queue.fullTimeout();
    const lost = this.#buffer.stop();
    if (lost > 0)
      this.log.error(
        { path: this.settings.path, lost },
        `job store ${this.settings.path}: closing with ${lost} write(s) kept in memory and not stored`,
      );
    this.file.close();
  }
}
