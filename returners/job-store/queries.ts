/**
 * The job store's statements: synchronous functions over one better-sqlite3 connection.
 * Values are msgpack (kernel/serial, IPC form) so bytes stay bytes; searchable fields are
 * also kept as text beside them.
 */
import type Database from 'better-sqlite3';
import type {
  EndState,
  JobQuery,
  JobSummary,
  PublishRequest,
  StoredLoad,
  StoredReturn,
} from '../../kernel/index.js';
import { packIpc, unpackIpc } from '../../kernel/util.js';
import { SEP } from './schema.js';
import { formatJidInstance, jobMatches } from './summary.js';

type Db = Database.Database;

const statements = new WeakMap<Db, Map<string, Database.Statement>>();

/** A prepared statement, cached per connection. */
function q(db: Db, sql: string): Database.Statement {
  let cache = statements.get(db);
  if (!cache) {
    cache = new Map();
    statements.set(db, cache);
  }
  let stmt = cache.get(sql);
  if (!stmt) {
    stmt = db.prepare(sql);
    cache.set(sql, stmt);
  }
  return stmt;
}

/** Text form of a string-or-list field: the string, or `SEP a SEP b SEP`. */
export function listText(value: unknown): string {
  if (Array.isArray(value)) return value.length ? `${SEP}${value.map(String).join(SEP)}${SEP}` : '';
  return typeof value === 'string' ? value : '';
}

function fromListText(text: string): string | string[] {
  return text.startsWith(SEP) ? text.slice(1, -1).split(SEP) : text;
}

function minionsOf(text: string): string[] {
  return text ? text.slice(1, -1).split(SEP) : [];
}

/** The 20-digit jid prefix for a time (microseconds zero). */
export function jidOf(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w: number) => String(n).padStart(w, '0');
  return (
    p(d.getUTCFullYear(), 4) +
    p(d.getUTCMonth() + 1, 2) +
    p(d.getUTCDate(), 2) +
    p(d.getUTCHours(), 2) +
    p(d.getUTCMinutes(), 2) +
    p(d.getUTCSeconds(), 2) +
    p(d.getUTCMilliseconds() * 1000, 6)
  );
}

/** Reserves a jid; false when it is already taken. */
export function reserveJob(db: Db, jid: string, nocache: boolean): boolean {
  return (
    q(db, 'INSERT INTO jobs (jid, nocache) VALUES (?, ?) ON CONFLICT (jid) DO NOTHING').run(
      jid,
      nocache ? 1 : 0,
    ).changes === 1
  );
}

function jobId(db: Db, jid: string): number | undefined {
  const row = q(db, 'SELECT id FROM jobs WHERE jid = ?').get(jid) as { id: number } | undefined;
  return row?.id;
}

function ensureJob(db: Db, jid: string): number {
  const id = jobId(db, jid);
  if (id !== undefined) return id;
  return Number(q(db, 'INSERT INTO jobs (jid) VALUES (?)').run(jid).lastInsertRowid);
}

export function saveLoad(db: Db, jid: string, load: PublishRequest, minions: readonly string[]): void {
  q(
    db,
    `INSERT INTO jobs (jid, fun, tgt, minions, load) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (jid) DO UPDATE SET fun = excluded.fun, tgt = excluded.tgt, minions = excluded.minions, load = excluded.load`,
  ).run(jid, listText(load.fun), listText(load.tgt), listText([...new Set(minions)]), packIpc(load));
}

export function saveMinions(db: Db, jid: string, minions: readonly string[]): void {
  const id = ensureJob(db, jid);
  const row = q(db, 'SELECT minions FROM jobs WHERE id = ?').get(id) as { minions: string };
  const all = [...new Set([...minionsOf(row.minions), ...minions])];
  q(db, 'UPDATE jobs SET minions = ? WHERE id = ?').run(listText(all), id);
}

/** Stores a real return; false when the minion already returned for this job (a replay). */
export function insertReturn(
  db: Db,
  jid: string,
  minion: string,
  funs: readonly string[],
  ret: StoredReturn,
): boolean {
  const job = ensureJob(db, jid);
  const changed = q(
    db,
    `INSERT INTO returns (job, minion, state, data) VALUES (?, ?, NULL, ?)
     ON CONFLICT (job, minion) DO UPDATE SET state = NULL, data = excluded.data WHERE returns.state IS NOT NULL`,
  ).run(job, minion, packIpc(ret)).changes;
  if (changed !== 1) return false;
  const last = q(
    db,
    `INSERT INTO fun_last (fun, minion, jid) VALUES (?, ?, ?)
     ON CONFLICT (fun, minion) DO UPDATE SET jid = excluded.jid WHERE excluded.jid > fun_last.jid`,
  );
  for (const fun of funs) last.run(fun, minion, jid);
  return true;
}

/** Records that a minion did not return, unless it has a real return. */
export function saveEndState(db: Db, jid: string, minion: string, state: EndState, text: string): void {
  const job = ensureJob(db, jid);
  q(
    db,
    `INSERT INTO returns (job, minion, state, data) VALUES (?, ?, ?, ?)
     ON CONFLICT (job, minion) DO UPDATE SET state = excluded.state, data = excluded.data WHERE returns.state IS NOT NULL`,
  ).run(job, minion, state, packIpc({ return: text }));
}

export function getLoad(db: Db, jid: string): StoredLoad | undefined {
  const row = q(db, 'SELECT load, minions FROM jobs WHERE jid = ?').get(jid) as
    | { load: Buffer | null; minions: string }
    | undefined;
  if (!row?.load) return undefined;
  return { ...(unpackIpc(row.load) as PublishRequest), Minions: minionsOf(row.minions) };
}

export function getJid(db: Db, jid: string): Record<string, StoredReturn> {
  const rows = q(
    db,
    'SELECT r.minion, r.state, r.data FROM jobs j JOIN returns r ON r.job = j.id WHERE j.jid = ? ORDER BY r.minion',
  ).all(jid) as Array<{ minion: string; state: string | null; data: Buffer }>;
  const out: Record<string, StoredReturn> = {};
  for (const row of rows) {
    const ret = unpackIpc(row.data) as StoredReturn;
    out[row.minion] = row.state ? { return: ret.return, state: row.state as EndState } : ret;
  }
  return out;
}

export function getFun(db: Db, fun: string): Record<string, string> {
  const rows = q(db, 'SELECT minion, jid FROM fun_last WHERE fun = ? ORDER BY minion').all(fun) as Array<{
    minion: string;
    jid: string;
  }>;
  return Object.fromEntries(rows.map((r) => [r.minion, r.jid]));
}

export function getMinions(db: Db): string[] {
  return (
    q(db, 'SELECT DISTINCT minion FROM fun_last ORDER BY minion').all() as Array<{ minion: string }>
  ).map((r) => r.minion);
}

interface JobRow {
  jid: string;
  fun: string;
  tgt: string;
  minions: string;
  load: Buffer;
}

function summaryOf(row: JobRow): JobSummary {
  return formatJidInstance(row.jid, unpackIpc(row.load) as PublishRequest, minionsOf(row.minions));
}

/** Every job with a load, by jid, oldest first. */
export function getJids(db: Db): Record<string, JobSummary> {
  const out: Record<string, JobSummary> = {};
  const rows = q(
    db,
    'SELECT jid, fun, tgt, minions, load FROM jobs WHERE load IS NOT NULL ORDER BY jid',
  ).iterate();
  for (const row of rows as Iterable<JobRow>) out[row.jid] = summaryOf(row);
  return out;
}

function globs(value: string | readonly string[] | undefined): readonly string[] | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' ? [value] : value;
}

/**
 * An SQL prefilter for fnmatch globs over a string-or-list text column: it may let through
 * more than the globs match (JS checks each candidate) but never less. SQLite's GLOB is
 * fnmatch for `*` and `?`; a glob with `[` is left to JS.
 */
function globFilter(
  columns: readonly string[],
  patterns: readonly string[],
  params: string[],
): string | undefined {
  if (patterns.some((p) => p.includes('['))) return undefined;
  const terms: string[] = [];
  for (const p of patterns) {
    for (const col of columns) {
      // List texts start with SEP, below ' ': `col < ' '` keeps both terms usable by an index.
      terms.push(`${col} GLOB ?`, `(${col} < ' ' AND ${col} GLOB ?)`);
      params.push(p, `*${SEP}${p}${SEP}*`);
    }
  }
  return terms.length ? `(${terms.join(' OR ')})` : '0';
}

/** `jobs.list_jobs`: jobs matching the query, newest first. */
export function listJobs(db: Db, query: JobQuery): Array<JobSummary & { jid: string }> {
  const where: string[] = [];
  const params: string[] = [];
  if (query.startTime) {
    where.push('jid >= ?');
    params.push(jidOf(query.startTime.getTime()));
  }
  if (query.endTime) {
    where.push('jid <= ?');
    params.push(`${jidOf(query.endTime.getTime())}\u007f`);
  }
  const funs = globs(query.searchFunction);
  const funFilter = funs ? globFilter(['fun'], funs, params) : undefined;
  let sql: string;
  if (funFilter && funs?.every((p) => !/^[*?]/.test(p))) {
    // A function search: the jids come sorted from the covering (fun, jid) index alone, then
    // rows are read one by one until the limit. `+jid` keeps the planner (which has no
    // statistics) from walking every job newest first instead.
    where.push(funFilter);
    sql = `SELECT id FROM jobs WHERE ${where.join(' AND ')} ORDER BY +jid DESC`;
  } else {
    if (funFilter) where.push(funFilter);
    const tgts = globs(query.searchTarget);
    const tgtFilter = tgts ? globFilter(['tgt', 'minions'], tgts, params) : undefined;
    if (tgtFilter) where.push(tgtFilter);
    sql = `SELECT id FROM jobs${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY jid DESC`;
  }
  const limit = query.limit !== undefined && query.limit >= 0 ? query.limit : Number.POSITIVE_INFINITY;
  const out: Array<JobSummary & { jid: string }> = [];
  if (limit === 0) return out;
  const rowOf = q(db, 'SELECT jid, fun, tgt, minions, load FROM jobs WHERE id = ? AND load IS NOT NULL');
  for (const id of q(db, sql)
    .pluck()
    .iterate(...params) as Iterable<number>) {
    const row = rowOf.get(id) as JobRow | undefined;
    if (!row) continue;
    const light: JobSummary = {
      Function: fromListText(row.fun),
      Target: fromListText(row.tgt),
      Minions: minionsOf(row.minions),
      Arguments: [],
      'Target-type': '',
      User: '',
      StartTime: '',
    };
    if (!jobMatches(row.jid, light, query)) continue;
    out.push({ jid: row.jid, ...summaryOf(row) });
    if (out.length >= limit) break;
  }
  return out;
}

/** What {@link deleteOldJobs} and friends would find: read alone, without the write lock. */
export function oldRows(
  db: Db,
  cutoffJid: string,
  cutoffMs: number,
): { jobs: boolean; funLast: boolean; events: boolean; freePages: number } {
  const any = (sql: string, arg: string | number): boolean => q(db, sql).get(arg) !== undefined;
  return {
    jobs: any('SELECT 1 FROM jobs WHERE jid < ? LIMIT 1', cutoffJid),
    funLast: any('SELECT 1 FROM fun_last WHERE jid < ? LIMIT 1', cutoffJid),
    events: any('SELECT 1 FROM events WHERE stamp < ? LIMIT 1', cutoffMs),
    freePages: Number(db.pragma('freelist_count', { simple: true })),
  };
}

/** Removes up to `batch` jobs older than `cutoffJid` with their returns; how many went. */
export function deleteOldJobs(db: Db, cutoffJid: string, batch: number): number {
  const ids = (
    q(db, 'SELECT id FROM jobs WHERE jid < ? ORDER BY jid LIMIT ?').all(cutoffJid, batch) as Array<{
      id: number;
    }>
  ).map((r) => r.id);
  const delReturns = q(db, 'DELETE FROM returns WHERE job = ?');
  const delJob = q(db, 'DELETE FROM jobs WHERE id = ?');
  for (const id of ids) {
    delReturns.run(id);
    delJob.run(id);
  }
  return ids.length;
}

/** Forgets `get_fun` entries whose newest job is older than `cutoffJid` (its jobs are gone). */
export function deleteOldFunLast(db: Db, cutoffJid: string): void {
  q(db, 'DELETE FROM fun_last WHERE jid < ?').run(cutoffJid);
}

/** Removes up to `batch` events stamped before `cutoffMs`; how many went. */
export function deleteOldEvents(db: Db, cutoffMs: number, batch: number): number {
  return q(db, 'DELETE FROM events WHERE id IN (SELECT id FROM events WHERE stamp < ? LIMIT ?)').run(
    cutoffMs,
    batch,
  ).changes;
}

export function insertEvent(db: Db, tag: string, data: unknown, stamp: number): void {
  q(db, 'INSERT INTO events (stamp, tag, data) VALUES (?, ?, ?)').run(stamp, tag, packIpc(data));
}
