/**
 * `postgres`: a job store in PostgreSQL (Salt's `pgjsonb` tables, jsonb values), usable as
 * `master_job_cache` so several masters share one job store, and as `event_return`.
 * Options (Salt's names): `postgres.host`, `.port`, `.user`, `.pass` (or `.passwd`), `.db`,
 * `.sslmode`, `.sslcert`, `.sslkey`, `.sslrootcert`, `.sslcrl`; see ./options.ts.
 */
import { defineReturner, type ReturnerContext, type ReturnerDef } from '../../kernel/index.js';
import { bufferedWrites } from './buffered-writes.js';
import { contextOptions } from './context-options.js';
import { type PostgresOptions, postgresOptions } from './options.js';
import {
  deleteOld,
  reserveJid,
  selectFun,
  selectJids,
  selectJobs,
  selectLoad,
  selectMinions,
  selectReturns,
} from './queries.js';
import { isDown, PgStore, STORE } from './store.js';

export interface PostgresReturnerSetup {
  /** Makes new jids (default: Salt's time-based jid). Tests use it to force collisions. */
  genJid?: (ctx: ReturnerContext<PostgresOptions>) => string;
}

/**
 * A `postgres` returner with its own pools (one per distinct connection): one per master.
 * The default export is one such returner.
 */
export function createPostgresReturner(setup: PostgresReturnerSetup = {}): ReturnerDef<PostgresOptions> {
  const stores = new Map<string, PgStore>();

  function store(ctx: ReturnerContext<PostgresOptions>): PgStore {
    const o = contextOptions(STORE, postgresOptions, ctx);
    const key = JSON.stringify([o.host, o.port, o.user, o.password, o.db, o.sslmode ?? null]);
    let found = stores.get(key);
    if (!found) {
      found = new PgStore(o, ctx.log);
      stores.set(key, found);
    }
    return found;
  }

  return defineReturner<PostgresOptions>({
    name: STORE,
    doc: "Job store in PostgreSQL (Salt's pgjsonb tables: jids, salt_returns, salt_events), shareable by several masters.",
    options: postgresOptions,

    ...bufferedWrites({
      name: STORE,
      store,
      isDown,
      reserveJid,
      genJid: setup.genJid,
    }),

    getLoad: (jid, ctx) => store(ctx).read('getLoad', (pool) => selectLoad(pool, jid)),
    getJid: (jid, ctx) => store(ctx).read('getJid', (pool) => selectReturns(pool, jid)),
    getFun: (fun, ctx) => store(ctx).read('getFun', (pool) => selectFun(pool, fun)),
    getJids: (ctx) => store(ctx).read('getJids', (pool) => selectJids(pool)),
    listJobs: (query, ctx) => store(ctx).read('listJobs', (pool) => selectJobs(pool, query)),
    getMinions: (ctx) => store(ctx).read('getMinions', (pool) => selectMinions(pool)),
    cleanOldJobs: (keepSeconds, ctx) =>
      store(ctx).read('cleanOldJobs', (pool) => deleteOld(pool, keepSeconds)),

    async close() {
      const all = [...stores.values()];
      stores.clear();
      await Promise.all(all.map((s) => s.close()));
    },
  });
}

export default createPostgresReturner();
