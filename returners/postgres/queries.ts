/**
 * The SQL of the `postgres` job store. Values go in as jsonb through {@link encodeJson}
 * (bytes and other non-JSON values tagged), so other tools can query them as Salt's pgjsonb.
 */
import pg from 'pg';
import {
  type EndState,
  type JobQuery,
  type JobReturn,
  type JobSummary,
  type PublishRequest,
  SALT_ERR_JOB_DUPLICATE_RETURN,
  type SaltEvent,
  type StoredReturn,
} from '../../kernel/index.js';
import { globToRegex, hasWildcard } from './glob.js';
import { jidAt, summarizeJob } from './job-summary.js';
import { encodeJson, fromJsonValue } from './json-value.js';

type Queryable = Pick<pg.Pool, 'query'>;

/** A write that can wait in the buffer while the server is down. */
export type PendingWrite =
  | { kind: 'jid'; jid: string; nocache: boolean }
  | { kind: 'load'; jid: string; load: PublishRequest; minions: string[] }
  | { kind: 'minions'; jid: string; minions: string[] }
  | { kind: 'return'; ret: JobReturn }
  | { kind: 'end'; jid: string; id: string; state: EndState }
  | { kind: 'events'; events: SaltEvent[]; masterId: string };

const END_TEXT: Record<EndState, string> = {
  not_connected: 'Not connected',
  no_response: 'No response',
  running: 'Still running when the client stopped waiting',
};

function list(value: string | readonly string[] | undefined): string[] {
  if (value === undefined) return [];
  return typeof value === 'string' ? [value] : [...value];
}

function funText(fun: unknown): string {
  return Array.isArray(fun) ? fun.join(',') : String(fun ?? '');
}

/** Reserves a jid: true when it was free. */
export async function reserveJid(q: Queryable, jid: string, nocache: boolean): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO jids (jid, load, nocache) VALUES ($1, 'null'::jsonb, $2) ON CONFLICT (jid) DO NOTHING`,
    [jid, nocache],
  );
  return res.rowCount === 1;
}

/** Writes one pending write. @throws SALT_ERR_JOB_DUPLICATE_RETURN for a second return */
export async function applyWrite(q: Queryable, w: PendingWrite): Promise<void> {
  switch (w.kind) {
    case 'jid':
      await reserveJid(q, w.jid, w.nocache);
      return;
    case 'load':
      await q.query(
        `WITH f AS (INSERT INTO salt_functions SELECT unnest($4::text[]) ON CONFLICT DO NOTHING)
         INSERT INTO jids (jid, load, minions, funs, tgts) VALUES ($1, $2::jsonb, $3::jsonb, $4, $5)
         ON CONFLICT (jid) DO UPDATE SET load = EXCLUDED.load, minions = EXCLUDED.minions,
           funs = EXCLUDED.funs, tgts = EXCLUDED.tgts`,
        [w.jid, encodeJson(w.load), JSON.stringify(w.minions), list(w.load.fun), list(w.load.tgt)],
      );
      return;
    case 'minions':
      await q.query(
        `INSERT INTO jids (jid, load, minions) VALUES ($1, 'null'::jsonb, $2::jsonb)
         ON CONFLICT (jid) DO UPDATE SET minions = (
           SELECT jsonb_agg(DISTINCT m) FROM jsonb_array_elements_text(
             coalesce(jids.minions, '[]'::jsonb) || EXCLUDED.minions) AS m)`,
        [w.jid, JSON.stringify(w.minions)],
      );
      return;
    case 'return': {
      const { ret } = w;
      const success = typeof ret.success === 'boolean' ? String(ret.success) : 'dict';
      try {
        await q.query(
          `INSERT INTO salt_returns (fun, jid, return, id, success, full_ret)
           VALUES ($1, $2, $3::jsonb, $4, $5, $6::jsonb)`,
          [funText(ret.fun), ret.jid, encodeJson(ret.return ?? null), ret.id, success, encodeJson(ret)],
        );
      } catch (err) {
        if (err instanceof pg.DatabaseError && err.code === '23505')
          throw new SALT_ERR_JOB_DUPLICATE_RETURN(ret.id, ret.jid);
        throw err;
      }
      return;
    }
    case 'end':
      await q.query(
        `INSERT INTO salt_end_states (jid, id, state)
         SELECT $1::varchar, $2::varchar, $3::varchar
          WHERE NOT EXISTS (SELECT 1 FROM salt_returns WHERE jid = $1::varchar AND id = $2::varchar)
         ON CONFLICT (jid, id) DO NOTHING`,
        [w.jid, w.id, w.state],
      );
      return;
    case 'events': {
      if (w.events.length === 0) return;
      const values: string[] = [];
      const params: unknown[] = [];
      for (const event of w.events) {
        params.push(event.tag, encodeJson(event.data ?? {}), w.masterId);
        const n = params.length;
        values.push(`($${n - 2}, $${n - 1}::jsonb, $${n})`);
      }
      await q.query(`INSERT INTO salt_events (tag, data, master_id) VALUES ${values.join(', ')}`, params);
      return;
    }
  }
}

interface JobRow {
  jid: string;
  load: Record<string, unknown>;
  minions: string[] | null;
}

export async function selectLoad(
  q: Queryable,
  jid: string,
): Promise<(PublishRequest & { Minions: string[] }) | undefined> {
  const res = await q.query<JobRow>('SELECT jid, load, minions FROM jids WHERE jid = $1', [jid]);
  const row = res.rows[0];
  if (!row || row.load === null || typeof row.load !== 'object') return undefined;
  return { ...(fromJsonValue(row.load) as PublishRequest), Minions: row.minions ?? [] };
}

export async function selectReturns(q: Queryable, jid: string): Promise<Record<string, StoredReturn>> {
  const out: Record<string, StoredReturn> = {};
  const ends = await q.query<{ id: string; state: EndState }>(
    'SELECT id, state FROM salt_end_states WHERE jid = $1 ORDER BY id',
    [jid],
  );
  for (const { id, state } of ends.rows)
    out[id] = { return: `Minion did not return. [${END_TEXT[state] ?? state}]`, state };
  const res = await q.query<{ id: string; full_ret: Record<string, unknown> }>(
    'SELECT id, full_ret FROM salt_returns WHERE jid = $1 ORDER BY id',
    [jid],
  );
  for (const row of res.rows) {
    const full = fromJsonValue(row.full_ret) as Record<string, unknown>;
    const stored: StoredReturn = {
      return: full.return,
      retcode: full.retcode as StoredReturn['retcode'],
      success: full.success as StoredReturn['success'],
    };
    if (typeof full.out === 'string') stored.out = full.out;
    out[row.id] = stored;
  }
  return out;
}

export async function selectFun(q: Queryable, fun: string): Promise<Record<string, string>> {
  const res = await q.query<{ id: string; jid: string }>(
    'SELECT DISTINCT ON (id) id, jid FROM salt_returns WHERE fun = $1 ORDER BY id, jid DESC',
    [fun],
  );
  return Object.fromEntries(res.rows.map((row) => [row.id, row.jid]));
}

export async function selectMinions(q: Queryable): Promise<string[]> {
  const res = await q.query<{ id: string }>('SELECT DISTINCT id FROM salt_returns ORDER BY id');
  return res.rows.map((row) => row.id);
}

function summaryOf(row: JobRow): JobSummary & { jid: string } {
  return {
    jid: row.jid,
    ...summarizeJob(row.jid, fromJsonValue(row.load) as Record<string, unknown>, row.minions ?? undefined),
  };
}

export async function selectJids(q: Queryable): Promise<Record<string, JobSummary>> {
  const res = await q.query<JobRow>(
    "SELECT jid, load, minions FROM jids WHERE load <> 'null'::jsonb ORDER BY jid",
  );
  const out: Record<string, JobSummary> = {};
  for (const row of res.rows) {
    const { jid, ...summary } = summaryOf(row);
    out[jid] = summary;
  }
  return out;
}

/**
 * `jobs.list_jobs` in SQL: newest first by the jid primary key (a jid starts with its time, so
 * a time window is a key range); functions through the GIN index on `funs` (a glob is first
 * matched against the small `salt_functions` table); exact targets through the GIN indexes on
 * `tgts` and `minions`. Only a target glob scans (newest first, stopping at the limit).
 */
export async function selectJobs(
  q: Queryable,
  query: JobQuery,
): Promise<Array<JobSummary & { jid: string }>> {
  const where = ["load <> 'null'::jsonb"];
  const params: unknown[] = [];
  const param = (value: unknown): string => {
    params.push(value);
    return `$${params.length}`;
  };
  const funs = list(query.searchFunction);
  if (funs.length > 0) {
    const exact = funs.filter((f) => !hasWildcard(f));
    const globs = funs.filter(hasWildcard);
    const any: string[] = [];
    if (exact.length > 0) any.push(`funs && ${param(exact)}::text[]`);
    for (const glob of globs)
      any.push(
        `funs && (SELECT coalesce(array_agg(fun), '{}') FROM salt_functions WHERE fun ~ ${param(globToRegex(glob))})`,
      );
    where.push(`(${any.join(' OR ')})`);
  }
  const targets = list(query.searchTarget);
  if (targets.length > 0) {
    const any = targets.map((glob) => {
      if (!hasWildcard(glob)) {
        const key = param(glob);
        return `tgts @> ARRAY[${key}::text] OR minions ? ${key}`;
      }
      const re = param(globToRegex(glob));
      return `EXISTS (SELECT 1 FROM unnest(tgts) t WHERE t ~ ${re})
        OR EXISTS (SELECT 1 FROM jsonb_array_elements_text(coalesce(minions, '[]'::jsonb)) m WHERE m ~ ${re})`;
    });
    where.push(`(${any.join(' OR ')})`);
  }
  if (query.startTime) where.push(`jid >= ${param(jidAt(query.startTime))}`);
  if (query.endTime) where.push(`jid < ${param(jidAt(new Date(query.endTime.getTime() + 1)))}`);
  const limit =
    query.limit !== undefined && query.limit >= 0 ? ` LIMIT ${param(Math.floor(query.limit))}` : '';
  const res = await q.query<JobRow>(
    `SELECT jid, load, minions FROM jids WHERE ${where.join(' AND ')} ORDER BY jid DESC${limit}`,
    params,
  );
  return res.rows.map(summaryOf);
}

/**
 * Removes jobs (with their returns and end states) and events older than `keepSeconds`. A job's
 * age is its jid's time (a jid starts with its start time, so this is a key range) or, when that
 * is later, when this store first saw it.
 */
export async function deleteOld(q: Queryable, keepSeconds: number): Promise<number> {
  const cutoffJid = jidAt(new Date(Date.now() - keepSeconds * 1000));
  const res = await q.query<{ n: string }>(
    `WITH old AS (
       DELETE FROM jids WHERE jid < $2 OR created < now() - make_interval(secs => $1) RETURNING jid),
     r AS (DELETE FROM salt_returns s USING old WHERE s.jid = old.jid),
     e AS (DELETE FROM salt_end_states s USING old WHERE s.jid = old.jid)
     SELECT count(*) AS n FROM old`,
    [keepSeconds, cutoffJid],
  );
  const older = 'now() - make_interval(secs => $1)';
  await q.query(`DELETE FROM salt_returns WHERE jid < $2 OR alter_time < ${older}`, [keepSeconds, cutoffJid]);
  await q.query(`DELETE FROM salt_end_states WHERE jid < $2 OR alter_time < ${older}`, [
    keepSeconds,
    cutoffJid,
  ]);
  await q.query(`DELETE FROM salt_events WHERE alter_time < ${older}`, [keepSeconds]);
  return Number(res.rows[0]?.n ?? 0);
}
