/**
 * `job_store`: the embedded job store, one SQLite file (`<cachedir>/jobs.sqlite`, WAL mode)
 * instead of Salt's directory per job. A million returns take a few files and bounded disk,
 * listing and searching jobs is indexed, old jobs go in small batches, and a crashed writer
 * loses nothing it acknowledged. Every request-server thread opens the same file; writers
 * wait for each other (`busy_timeout`) and writes made in the same event-loop turn share a
 * commit (one per 256). Failures are SALT_ERR_JOB_STORE, never a crash; a store that cannot be
 * written keeps the writes in memory and jobs run on (store.ts); a damaged file is moved aside
 * (store-file.ts); a file deleted while open is noticed and made anew (write-queue.ts).
 *
 * Why SQLite, measured by bench/job-store-bench.ts (1,000,000 returns, jobs of 10, same disk,
 * same run): 15 s and 174 MiB in 4 files, against 247 s, 9.4 GiB and 2.4 million inodes for
 * Salt's directory layout; lookup_jid 0.1 ms against 3 ms; list_jobs 1 ms against more than
 * 60 s; removing every job 1.4 s against 851 s. WAL with synchronous=NORMAL loses no
 * acknowledged write when the process dies (tested with kill -9); group commit is 2.7x one
 * commit per return, synchronous=FULL 0.5x (the `synchronous: full` option).
 */
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import {
  defineReturner,
  type EndState,
  type ReturnerContext,
  SALT_ERR_JOB_DUPLICATE_RETURN,
  type StoredReturn,
} from '../../kernel/index.js';
import { genJid, isJid, isValidMinionId } from '../../kernel/util.js';
import { SALT_ERR_JOB_STORE, SALT_ERR_JOB_STORE_CORRUPT } from './errors.js';
import * as Q from './queries.js';
import { type StoreSettings, storeError } from './schema.js';
import { JobStore } from './store.js';

/** The store's options (`job_store.<key>`, documented in docs/config.md, "Job store options"). */
export const jobStoreOptions = z.object({
  /** The database file; default `<cachedir>/jobs.sqlite`. */
  path: z.string().min(1).optional(),
  /** `normal`: a crashed master loses nothing; `full`: a power cut loses nothing either (slower). */
  synchronous: z.enum(['normal', 'full']).default('normal'),
  /** Milliseconds a writer waits for another process's write lock before failing. */
  busy_timeout: z.number().int().nonnegative().default(10_000),
  /**
   * A file SQLite finds damaged (a garbage header, a truncated file): `move_aside` renames it
   * `<path>.corrupt-<time>` and starts a new, empty store; `refuse` leaves it and the master does
   * not start (SALT_ERR_JOB_STORE_CORRUPT).
   */
  on_corrupt: z.enum(['move_aside', 'refuse']).default('move_aside'),
  /**
   * Most writes kept in memory while the store cannot be written (disk full, file or folder
   * gone, lock held past busy_timeout), the oldest dropped past it; 0: such writes fail.
   */
  buffer_size: z.number().int().nonnegative().default(10_000),
  /** Seconds between tries of the writes kept in memory. */
  retry_interval: z.number().positive().default(1),
});
export type JobStoreOptions = z.infer<typeof jobStoreOptions>;

const END_TEXT: Record<EndState, string> = {
  not_connected: 'Not connected',
  no_response: 'No response',
  running: 'Still running when the client stopped waiting',
};

/** Jobs removed per transaction by cleanOldJobs (the event loop runs between batches). */
const CLEAN_BATCH = 500;
/** Pages returned to the file system per incremental_vacuum step. */
const VACUUM_PAGES = 2048;

/** The file and settings a context points at (defaults applied, so raw options work too). */
export function storeSettings(ctx: ReturnerContext<Partial<JobStoreOptions>>): StoreSettings {
  const o = ctx.options ?? {};
  const path = o.path ?? join(String(ctx.opts.cachedir ?? '.'), 'jobs.sqlite');
  return {
    path,
    synchronous: o.synchronous === 'full' ? 'full' : 'normal',
    busyTimeoutMs: typeof o.busy_timeout === 'number' ? o.busy_timeout : 10_000,
    onCorrupt: o.on_corrupt === 'refuse' ? 'refuse' : 'move_aside',
    bufferSize: typeof o.buffer_size === 'number' ? o.buffer_size : 10_000,
    retryMs: (typeof o.retry_interval === 'number' ? o.retry_interval : 1) * 1000,
  };
}

const stores = new Map<string, JobStore>();
/**
 * The store each context last used: the master's job cache passes the same context to every
 * call, and working the path out again (a `path.join`) was a measurable part of each return.
 */
const byContext = new WeakMap<object, JobStore>();

function store(ctx: ReturnerContext<Partial<JobStoreOptions>>): JobStore {
  const known = byContext.get(ctx);
  // a store closed since (close() forgets it) is opened again below
  if (known && stores.get(known.settings.path) === known) return known;
  const settings = storeSettings(ctx);
  let s = stores.get(settings.path);
  if (!s) {
    s = new JobStore(settings, ctx.log);
    stores.set(settings.path, s);
  }
  byContext.set(ctx, s);
  return s;
}

/** Runs a read on the process's connection; failures become SALT_ERR_JOB_STORE. */
const read = <T>(ctx: ReturnerContext<Partial<JobStoreOptions>>, op: (db: Database.Database) => T) =>
  store(ctx).read(op);

/** A write that fails rather than wait in memory (maintenance). */
const write = <T>(ctx: ReturnerContext<Partial<JobStoreOptions>>, op: (db: Database.Database) => T) =>
  store(ctx).write(op);

/** A write kept in memory while the store cannot be written (resolves KEPT then). */
const keep = <T>(
  ctx: ReturnerContext<Partial<JobStoreOptions>>,
  method: string,
  op: (db: Database.Database) => T,
) => store(ctx).keep(method, op);

function funsOf(fun: unknown): string[] {
  if (typeof fun === 'string') return [fun];
  return Array.isArray(fun) ? fun.filter((f): f is string => typeof f === 'string') : [];
}

export default defineReturner<JobStoreOptions>({
  name: 'job_store',
  doc: 'Embedded job store: jobs, returns and events in <cachedir>/jobs.sqlite (SQLite, WAL).',
  options: jobStoreOptions,

  /**
   * Opens the store when a process loads it (the master's children, at start), so that a
   * damaged file is moved aside before the first job, or the start refused (`on_corrupt:
   * refuse`: SALT_ERR_JOB_STORE_CORRUPT). Any other failure to open is logged here and met again
   * by each operation.
   */
  virtual(ctx) {
    try {
      store(ctx).file.db();
    } catch (err) {
      if (err instanceof SALT_ERR_JOB_STORE_CORRUPT) throw err;
      ctx.log.error({ err: (err as Error).message }, `job store cannot be opened: ${(err as Error).message}`);
    }
    return true;
  },

  async prepJid(ctx, opts) {
    if (opts?.passedJid) {
      const jid = opts.passedJid;
      await keep(ctx, 'prepJid', (db) => Q.reserveJob(db, jid, Boolean(opts.nocache)));
      return jid;
    }
    for (let attempt = 0; attempt < 10; attempt++) {
      const jid = genJid({ unique_jid: Boolean(ctx.opts.unique_jid) });
      // Another process may have taken the same microsecond: then take the next jid. A jid
      // kept in memory (the store cannot be written) is reserved once it can.
      if (await keep(ctx, 'prepJid', (db) => Q.reserveJob(db, jid, Boolean(opts?.nocache)))) return jid;
    }
    throw new SALT_ERR_JOB_STORE(store(ctx).settings.path, 'could not reserve a free jid after 10 tries');
  },

  async saveLoad(jid, load, minions, ctx) {
    await keep(ctx, 'saveLoad', (db) => Q.saveLoad(db, jid, load, minions));
  },

  async saveMinions(jid, minions, ctx) {
    await keep(ctx, 'saveMinions', (db) => Q.saveMinions(db, jid, minions));
  },

  async returner(ret, ctx) {
    if (!isValidMinionId(ret.id) || !isJid(ret.jid)) {
      ctx.log.warn({ id: ret.id, jid: ret.jid }, 'job store: return with a bad minion id or jid not stored');
      return;
    }
    const stored: StoredReturn = { return: ret.return, retcode: ret.retcode, success: ret.success };
    if (typeof ret.out === 'string') stored.out = ret.out;
    const funs = funsOf(ret.fun);
    await keep(ctx, 'returner', (db) => {
      if (!Q.insertReturn(db, ret.jid, ret.id, funs, stored))
        throw new SALT_ERR_JOB_DUPLICATE_RETURN(ret.id, ret.jid);
    });
  },

  async saveEndState(jid, id, state, ctx) {
    if (!isValidMinionId(id) || !isJid(jid)) return;
    await keep(ctx, 'saveEndState', (db) =>
      Q.saveEndState(db, jid, id, state, `Minion did not return. [${END_TEXT[state]}]`),
    );
  },

  getLoad: (jid, ctx) => read(ctx, (db) => Q.getLoad(db, jid)),
  getJid: (jid, ctx) => read(ctx, (db) => Q.getJid(db, jid)),
  getFun: (fun, ctx) => read(ctx, (db) => Q.getFun(db, fun)),
  getJids: (ctx) => read(ctx, (db) => Q.getJids(db)),
  listJobs: (query, ctx) => read(ctx, (db) => Q.listJobs(db, query)),
  getMinions: (ctx) => read(ctx, (db) => Q.getMinions(db)),

  async cleanOldJobs(keepSeconds, ctx) {
    const now = Date.now();
    const cutoff = Q.jidOf(now - keepSeconds * 1000);
    const cutoffMs = now - keepSeconds * 1000;
    // Look first: a tick with nothing to remove takes no write lock (the request workers
    // write to the same file; maintenance ticks every loop_interval).
    const todo = await read(ctx, (db) => Q.oldRows(db, cutoff, cutoffMs));
    let removed = 0;
    while (todo.jobs) {
      const n = await write(ctx, (db) => Q.deleteOldJobs(db, cutoff, CLEAN_BATCH));
      removed += n;
      if (n < CLEAN_BATCH) break;
    }
    if (todo.funLast || removed > 0) await write(ctx, (db) => Q.deleteOldFunLast(db, cutoff));
    let events = todo.events ? 1 : 0;
    while (events > 0) events = await write(ctx, (db) => Q.deleteOldEvents(db, cutoffMs, CLEAN_BATCH * 10));
    // Give the freed pages back to the file system, a slice at a time (a file made without
    // incremental auto-vacuum keeps them for reuse instead: then the count stops falling).
    let free = Number.POSITIVE_INFINITY;
    const freed = todo.jobs || todo.funLast || todo.events || todo.freePages > 0;
    while (freed && free > 0) {
      const left = await write(ctx, (db) => {
        db.pragma(`incremental_vacuum(${VACUUM_PAGES})`);
        return Number(db.pragma('freelist_count', { simple: true }));
      });
      if (left >= free) break;
      free = left;
    }
    if (removed > 0) {
      await read(ctx, (db) => {
        try {
          db.pragma('wal_checkpoint(TRUNCATE)');
        } catch {
          // busy with another process's readers: the next checkpoint shrinks it
        }
      });
    }
    return removed;
  },

  async eventReturn(events, ctx) {
    if (!events.length) return;
    const stamp = Date.now();
    await keep(ctx, 'eventReturn', (db) => {
      for (const ev of events) Q.insertEvent(db, ev.tag, ev.data, stamp);
    });
  },

  async close(ctx) {
    const s = store(ctx);
    stores.delete(s.settings.path);
    // what is queued (even a batch waiting for another process's write lock) is written first
    try {
      await s.close();
    } catch (err) {
      throw storeError(s.settings.path, err);
    }
  },
});
