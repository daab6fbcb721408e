/**
 * Salt's `__context__["mysql.error"]` and `__context__["mysql.version"]`: the last MySQL error
 * a function of the job met (the `mysql_*` states pop it into their comments) and the server
 * version the job already asked for. Kept in `ctx.cache` by job id, so one job never sees
 * another's error; only the latest few jobs are kept.
 */
import type { ExecContext } from '../kernel/index.js';

interface JobMysqlContext {
  error?: string | null;
  version?: string;
}

const KEY = 'mysql.context';
const KEEP = 16;

function jobContext(ctx: ExecContext): JobMysqlContext {
  let all = ctx.cache.get(KEY) as Map<string, JobMysqlContext> | undefined;
  if (!all) {
    all = new Map();
    ctx.cache.set(KEY, all);
  }
  let mine = all.get(ctx.jid);
  if (!mine) {
    mine = {};
    all.set(ctx.jid, mine);
    for (const old of all.keys()) {
      if (all.size <= KEEP) break;
      all.delete(old);
    }
  }
  return mine;
}

/** Records `err` as the job's last MySQL error (null clears it). */
export function setMysqlError(ctx: ExecContext, err: string | null): void {
  jobContext(ctx).error = err;
}

/** The job's last MySQL error, or null. */
export function mysqlError(ctx: ExecContext): string | null {
  return jobContext(ctx).error ?? null;
}

/** Salt's `__context__.pop("mysql.error", None)`: the last error, then forgotten. */
export function popMysqlError(ctx: ExecContext): string | null {
  const c = jobContext(ctx);
  const err = c.error ?? null;
  delete c.error;
  return err;
}

/** The server version this job already read, if any. */
export function cachedVersion(ctx: ExecContext): string | undefined {
  return jobContext(ctx).version;
}

/** Remembers the server version for the rest of the job. */
export function cacheVersion(ctx: ExecContext, version: string): void {
  jobContext(ctx).version = version;
}
