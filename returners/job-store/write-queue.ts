/**
 * Group commit: writes queued in the same turn of the event loop run in one SQLite
 * transaction (or, past {@link FLUSH_AT} of them, in transactions of that many), and each
 * caller's promise settles only after that transaction commits. Many minions returning at once
 * then cost a commit per few hundred instead of one each; a write that fails (a duplicate
 * return) fails alone.
 *
 * The queue never blocks its thread waiting for another process's write lock. The request
 * server commits minions' returns on the thread that reads every request, and SQLite's own
 * busy wait would stall all of them (up to `busy_timeout`, 10 s by default) while, say, an
 * operator's `sqlite3` shell holds the lock. A transaction that finds the lock taken waits at
 * most {@link LOCK_TRY_MS} inside SQLite; the batch is then tried again on a timer, ahead of
 * later writes, until `busy_timeout` has passed since its first try.
 *
 * A store deleted (or moved aside and made anew) while open loses nothing written after: the
 * connection would go on committing into the old file, which no other process sees. After a
 * commit the queue checks, {@link VERIFY_MS} later, with one `stat` (not one per write), that the
 * path still names the file it committed to; if not, the file is opened again (a new store when
 * none is there) and the writes committed since the last check are written to it again, ahead
 * of the rest.
 */
import type Database from 'better-sqlite3';
import { isBusy, isCorrupt } from './failures.js';
import { storeError } from './schema.js';

type Op = (db: Database.Database) => unknown;

/** The connection a queue writes through (store-file.ts). */
export interface QueueFile {
  /** The open connection (opened on first use). */
  db(): Database.Database;
  /** Told when SQLite reported the file malformed, so it can be checked (and moved aside). */
  suspect?(err: unknown): void;
  /** Whether the path no longer names the open file (then the connection is closed). */
  replaced?(): 'deleted' | 'replaced' | undefined;
}

/** What the queue tells its owner about writes it makes again in a new file. */
export interface QueueOwner {
  /** The file was deleted or replaced; `count` recent writes are written again to the new one. */
  replaced?(kind: 'deleted' | 'replaced', count: number): void;
  /** A write made again failed: nobody waits for it any more. */
  lost?(op: Op, err: unknown): void;
}

interface Pending {
  op: Op;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

/** A connection's commit, built once (WriteQueue.transaction); `batch` is what `run()` writes. */
interface Transaction {
  db: Database.Database;
  batch: Pending[];
  results: unknown[];
  run: () => void;
}

/** At most this many writes share one transaction. */
const MAX_BATCH = 2000;

/**
 * Writes queued before a commit is made at once, without waiting for the event loop's turn to
 * end. A turn can be long: the request server reads thousands of minions' returns in one poll
 * phase, and at 10,000 swarm minions none was committed, answered or announced until all had
 * been read (~1 s, then one burst). Each transaction still carries hundreds of writes.
 */
const FLUSH_AT = 256;

/** Longest wait for the write lock inside SQLite (blocking the thread) per try. */
export const LOCK_TRY_MS = 5;
/** Wait between tries while the write lock is taken (the thread is free meanwhile). */
export const LOCK_RETRY_MS = 20;
/** How long after a commit the queue checks that the path still names the file it wrote to. */
export const VERIFY_MS = 100;

export class WriteQueue {
  private pending: Pending[] = [];
  private scheduled = false;
  /** Set while a batch waits for the write lock; nothing is committed before it. */
  private retry: NodeJS.Timeout | undefined;
  /** When the waiting batch first found the lock taken (ms, monotonic). */
  private busySince = 0;
  /** Writes committed since the path was last checked: made again if the file was replaced. */
  private unverified: Op[] = [];
  private verifyTimer: NodeJS.Timeout | undefined;
  /** The connection a commit left with the short `busy_timeout` ({@link LOCK_TRY_MS}). */
  private short: Database.Database | undefined;
  private txn: Transaction | undefined;

  /**
   * @param busyTimeoutMs how long a batch may wait for the write lock before its writes fail
   *   (the store's `busy_timeout`); the connection's own busy timeout is used by close().
   */
  constructor(
    private readonly file: QueueFile,
    private readonly path: string,
    private readonly busyTimeoutMs = 10_000,
    private readonly owner: QueueOwner = {},
  ) {}

  /** Runs `op` inside the next transaction; resolves with its result once committed. */
  run<T>(op: (db: Database.Database) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, resolve: resolve as (value: unknown) => void, reject });
      if (this.retry) return;
      if (this.pending.length >= FLUSH_AT) {
        this.flush();
        return;
      }
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => {
          this.scheduled = false;
          this.flush();
        });
      }
    });
  }

  /**
   * Commits everything queued now. `wait` (close) lets SQLite wait for the write lock as long
   * as the connection's busy timeout allows, on this thread, so that nothing is left behind.
   */
  flush(opts: { wait?: boolean } = {}): void {
    if (this.retry) {
      if (!opts.wait) return;
      clearTimeout(this.retry);
      this.retry = undefined;
    }
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const results: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
      let db: Database.Database | undefined;
      try {
        db = this.file.db();
        this.commit(db, batch, results, opts.wait === true);
      } catch (err) {
        if (isCorrupt(err)) this.file.suspect?.(err);
        // the lock was taken and the transaction rolled back (nothing of it was committed): the
        // whole batch waits and runs again, ahead of later writes
        const rolledBack = db !== undefined && !db.inTransaction;
        if (isBusy(err) && rolledBack && !opts.wait && this.waitForLock(batch)) return;
        this.busySince = 0;
        const wrapped = storeError(this.path, err);
        for (const p of batch) p.reject(wrapped);
        continue;
      }
      this.busySince = 0;
      const corrupt = results.find((r) => !r.ok && isCorrupt(r.err));
      if (corrupt && !corrupt.ok) this.file.suspect?.(corrupt.err);
      for (const [i, p] of batch.entries()) {
        const r = results[i];
        if (r?.ok && this.file.replaced) this.unverified.push(p.op);
        if (r?.ok) p.resolve(r.value);
        else p.reject(r ? storeError(this.path, r.err) : storeError(this.path, 'write lost'));
      }
      this.armVerify();
    }
  }

  /**
   * Checks (one `stat`) that the path still names the file the queue commits to. If it does
   * not, the connection is opened again and the writes committed since the last check are
   * written to the new file, ahead of the queued ones (`wait` as for {@link flush}). True then.
   */
  verify(opts: { wait?: boolean } = {}): boolean {
    if (this.verifyTimer) clearTimeout(this.verifyTimer);
    this.verifyTimer = undefined;
    const recent = this.unverified;
    this.unverified = [];
    const gone = this.file.replaced?.();
    if (!gone) return false;
    this.owner.replaced?.(gone, recent.length);
    const again: Pending[] = recent.map((op) => ({
      op,
      resolve: () => undefined,
      reject: (err: unknown) => this.owner.lost?.(op, err),
    }));
    this.pending = again.concat(this.pending);
    this.flush(opts);
    return true;
  }

  private armVerify(): void {
    if (this.verifyTimer || this.unverified.length === 0) return;
    this.verifyTimer = setTimeout(() => {
      this.verifyTimer = undefined;
      this.verify();
    }, VERIFY_MS);
    this.verifyTimer.unref();
  }

  private commit(db: Database.Database, batch: Pending[], results: unknown[], wait: boolean): void {
    // the short wait stays set between commits: setting it is a statement compiled anew each
    // time (two per commit were ~5 % of the request server's main thread); a read, a wait and
    // close() put the full one back first (fullTimeout)
    if (wait) this.fullTimeout();
    else if (this.short !== db) {
      const full = Math.max(0, Math.floor(this.busyTimeoutMs));
      db.pragma(`busy_timeout = ${Math.min(LOCK_TRY_MS, full)}`);
      this.short = db;
    }
    const t = this.transaction(db);
    t.batch = batch;
    t.results = results;
    try {
      t.run();
    } finally {
      t.batch = [];
      t.results = [];
    }
  }

  /**
   * Gives the connection its full `busy_timeout` again when a commit left the short one: before
   * a read, so that only this queue's commits wait at most {@link LOCK_TRY_MS} inside SQLite.
   */
  fullTimeout(): void {
    const db = this.short;
    if (!db) return;
    this.short = undefined;
    if (db.open) db.pragma(`busy_timeout = ${Math.max(0, Math.floor(this.busyTimeoutMs))}`);
  }

  /** The connection's commit, built once: `db.transaction()` makes five closures each call. */
  private transaction(db: Database.Database): Transaction {
    if (this.txn?.db === db) return this.txn;
    const t: Transaction = {
      db,
      batch: [],
      results: [],
      run: db.transaction(() => {
        for (const p of t.batch) {
          try {
            t.results.push({ ok: true, value: p.op(db) });
          } catch (err) {
            // SQLite rolled the whole transaction back (disk full, I/O error): fail the batch.
            if (!db.inTransaction) throw err;
            t.results.push({ ok: false, err });
          }
        }
      }).immediate,
    };
    this.txn = t;
    return t;
  }

  /** Puts `batch` back in front and tries again later; false once `busy_timeout` has passed. */
  private waitForLock(batch: Pending[]): boolean {
    const now = performance.now();
    if (this.busySince === 0) this.busySince = now;
    if (now - this.busySince >= this.busyTimeoutMs) {
      this.busySince = 0;
      return false;
    }
    this.pending = batch.concat(this.pending);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.flush();
    }, LOCK_RETRY_MS);
    return true;
  }
}
