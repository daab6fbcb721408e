/**
 * `postgres`: a job store in PostgreSQL (Salt's `pgjsonb` tables, jsonb values), usable as
 * `master_job_cache` so several masters share one job store, and as `event_return`.
 * Options (Salt's names): `postgres.host`, `.port`, `.user`, `.pass` (or `.passwd`), `.db`,
 * `.sslmode`, `.sslcert`, `.sslkey`, `.sslrootcert`, `.sslcrl`; see ./options.ts.
 */
import { SALT_ERR_RETURNER_FAILED } from '../../kernel/errors.js';
import { genJid } from '../../kernel/jid.js';
import { defineReturner, type ReturnerContext, type ReturnerDef } from '../../kernel/jobs/returner.js';
import { contextOptions } from './context-options.js';
import { nextJid } from './job-summary.js';
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

/** How many next-microsecond jids prepJid tries when another master took the one it made. */
const JID_TRIES = 1000;

/**
 * A `postgres` returner with its own pools (one per distinct connection): one per master.
 * The default export is one such returner.
 */
export function createPostgresReturner(setup: PostgresReturnerSetup = {}): ReturnerDef<PostgresOptions> {
  const stores = new Map<string, PgStore>();
  const makeJid = setup.genJid ?? ((ctx) => genJid({ unique_jid: Boolean(ctx.opts.unique_jid) }));

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

    async returner(ret, ctx) {
      await store(ctx).write('returner', { kind: 'return', ret });
    },

    async prepJid(ctx, opts) {
      const s = store(ctx);
      const nocache = Boolean(opts?.nocache);
      if (opts?.passedJid) {
        await s.write('prepJid', { kind: 'jid', jid: opts.passedJid, nocache }).catch((err: unknown) => {
          ctx.log.error({ err: (err as Error).message }, `${STORE}: jid reserved locally only`);
        });
        return opts.passedJid;
      }
      let jid = makeJid(ctx);
      try {
        return await s.read('prepJid', async (pool) => {
          for (let i = 0; i < JID_TRIES; i++, jid = nextJid(jid))
            if (await reserveJid(pool, jid, nocache)) return jid;
          throw new SALT_ERR_RETURNER_FAILED(STORE, 'prepJid', `no free jid in ${JID_TRIES} microseconds`);
        });
      } catch (err) {
        // Jobs still run while the store is down: the jid is reserved once it is back.
        if (!isDown((err as Error).cause ?? err)) throw err;
        s.buffer.push({ kind: 'jid', jid, nocache });
        ctx.log.error({ jid, err: (err as Error).message }, `${STORE}: jid not reserved in the store yet`);
        return jid;
      }
    },

    async saveLoad(jid, load, minions, ctx) {
      // Not thrown: a job must still be published while the store is down (the load is buffered).
      await store(ctx)
        .write('saveLoad', { kind: 'load', jid, load, minions: [...minions] })
        .catch((err: unknown) => {
          if ((err as Error).cause === undefined || !isDown((err as Error).cause)) throw err;
          ctx.log.error({ jid, err: (err as Error).message }, `${STORE}: load buffered`);
        });
    },

    async saveMinions(jid, minions, ctx) {
      await store(ctx).write('saveMinions', { kind: 'minions', jid, minions: [...minions] });
    },

    async saveEndState(jid, id, state, ctx) {
      await store(ctx).write('saveEndState', { kind: 'end', jid, id, state });
    },

    async eventReturn(events, ctx) {
      const masterId = typeof ctx.opts.id === 'string' ? ctx.opts.id : 'master';
      await store(ctx).write('eventReturn', { kind: 'events', events: [...events], masterId });
    },

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
