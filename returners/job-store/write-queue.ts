/**
 * Group commit: writes queued in the same turn of the event loop run in one SQLite
 * transaction (or, past {@link FLUSH_AT} of them, in transactions of that many), and each
 * caller's promise settles only after that transaction commits. Many minions returning at once
 * then cost a commit per few hundred instead of one each; a write that fails (a duplicate
 * return) fails alone.
 */
import type Database from 'better-sqlite3';
import { storeError } from './schema.js';

interface Pending {
  op: (db: Database.Database) => unknown;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
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

export class WriteQueue {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: () => Database.Database,
    private readonly path: string,
  ) {}

  /** Runs `op` inside the next transaction; resolves with its result once committed. */
  run<T>(op: (db: Database.Database) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ op, resolve: resolve as (value: unknown) => void, reject });
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

  /** Commits everything queued now (also called on close). */
  flush(): void {
    while (this.pending.length) {
      const batch = this.pending.splice(0, MAX_BATCH);
      const results: Array<{ ok: true; value: unknown } | { ok: false; err: unknown }> = [];
      try {
        const db = this.db();
        db.transaction(() => {
          for (const p of batch) {
            try {
              results.push({ ok: true, value: p.op(db) });
            } catch (err) {
              // SQLite rolled the whole transaction back (disk full, I/O error): fail the batch.
              if (!db.inTransaction) throw err;
              results.push({ ok: false, err });
            }
          }
        }).immediate();
      } catch (err) {
        const wrapped = storeError(this.path, err);
        for (const p of batch) p.reject(wrapped);
        continue;
      }
      for (const [i, p] of batch.entries()) {
        const r = results[i];
        if (r?.ok) p.resolve(r.value);
        else p.reject(r ? storeError(this.path, r.err) : storeError(this.path, 'write lost'));
      }
    }
  }
}
