/**
 * `redis`: returns and job loads in Redis, in Salt's `redis_return` key layout (JSON strings),
 * usable as `master_job_cache`. Options (Salt's names): `redis.host`, `.port`, `.db`,
 * `.password`, `.unix_socket_path`, `.cluster_mode` (not supported yet); see ./options.ts.
 * Keys live `keep_jobs_seconds` (Salt's TTL); `cleanOldJobs` removes older jobs at once.
 */
import {
  defineReturner,
  type EndState,
  type JobSummary,
  type PublishRequest,
  type ReturnerContext,
  type ReturnerDef,
  SALT_ERR_RETURNER_UNAVAILABLE,
  type StoredReturn,
} from '../../kernel/index.js';
import { bufferedWrites } from '../postgres/buffered-writes.js';
import { contextOptions } from '../postgres/context-options.js';
import { summarizeJob } from '../postgres/job-summary.js';
import { decodeJson } from '../postgres/json-value.js';
import { type RedisOptions, redisOptions } from './options.js';
import { isDown, type RedisClient, RedisStore, STORE } from './store.js';

const END_TEXT: Record<EndState, string> = {
  not_connected: 'Not connected',
  no_response: 'No response',
  running: 'Still running when the client stopped waiting',
};

const CLUSTER_UNSUPPORTED =
  'cluster_mode is not supported yet: point redis.host/redis.port (or redis.unix_socket_path) at one Redis server';

/** Salt's keep_jobs_seconds (or legacy keep_jobs hours): how long a job's keys live. */
function ttlOf(opts: Readonly<Record<string, unknown>>): number {
  const seconds = Number(opts.keep_jobs_seconds);
  if (Number.isFinite(seconds) && seconds > 0) return Math.floor(seconds);
  const hours = Number(opts.keep_jobs);
  return Number.isFinite(hours) && hours > 0 ? Math.floor(hours * 3600) : 86_400;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface RedisReturnerSetup {
  /** Makes new jids (default: Salt's time-based jid). Tests use it to force collisions. */
  genJid?: (ctx: ReturnerContext<RedisOptions>) => string;
}

/** A `redis` returner with its own connections (one per distinct server): one per master. */
export function createRedisReturner(setup: RedisReturnerSetup = {}): ReturnerDef<RedisOptions> {
  const stores = new Map<string, RedisStore>();

  function store(ctx: ReturnerContext<RedisOptions>): RedisStore {
    const o = contextOptions(STORE, redisOptions, ctx);
    if (o.cluster_mode) throw new SALT_ERR_RETURNER_UNAVAILABLE(STORE, CLUSTER_UNSUPPORTED);
    const key = JSON.stringify([o.unix_socket_path ?? null, o.host, o.port, o.db, o.password ?? '']);
    let found = stores.get(key);
    if (!found) {
      found = new RedisStore(o, ctx.log, ttlOf(ctx.opts));
      stores.set(key, found);
    }
    return found;
  }

  return defineReturner<RedisOptions>({
    name: STORE,
    doc: "Returns and job loads in Redis, in Salt's redis_return key layout (ret:<jid>, load:<jid>, <minion>:<fun>, minions).",
    options: redisOptions,

    virtual(ctx) {
      return ctx.options.cluster_mode ? { ok: false, reason: CLUSTER_UNSUPPORTED } : true;
    },

    ...bufferedWrites({
      name: STORE,
      store,
      isDown,
      reserveJid: async (c: RedisClient, jid, nocache, s) =>
        Boolean(
          await c.set(`tsalt:jid:${jid}`, nocache ? 'nocache' : '1', {
            condition: 'NX',
            expiration: { type: 'EX', value: s.ttl },
          }),
        ),
      genJid: setup.genJid,
    }),

    getLoad: (jid, ctx) =>
      store(ctx).read('getLoad', async (c) => {
        const [text, minions] = await Promise.all([c.get(`load:${jid}`), c.sMembers(`minions:${jid}`)]);
        if (typeof text !== 'string') return undefined;
        return { ...(decodeJson(text) as PublishRequest), Minions: [...minions].sort() };
      }),

    getJid: (jid, ctx) =>
      store(ctx).read('getJid', async (c) => {
        const [rets, ends] = await Promise.all([c.hGetAll(`ret:${jid}`), c.hGetAll(`end:${jid}`)]);
        const out: Record<string, StoredReturn> = {};
        for (const [id, state] of Object.entries(ends).sort()) {
          const s = state as EndState;
          out[id] = { return: `Minion did not return. [${END_TEXT[s] ?? s}]`, state: s };
        }
        for (const [id, text] of Object.entries(rets).sort()) {
          const full = decodeJson(text) as Record<string, unknown>;
          const stored: StoredReturn = {
            return: full.return,
            retcode: full.retcode as StoredReturn['retcode'],
            success: full.success as StoredReturn['success'],
          };
          if (typeof full.out === 'string') stored.out = full.out;
          out[id] = stored;
        }
        return out;
      }),

    getFun: (fun, ctx) =>
      store(ctx).read('getFun', async (c) => {
        const minions = await c.sMembers('minions');
        const out: Record<string, string> = {};
        for (const part of chunks(minions, 1000)) {
          const jids = part.length ? await c.mGet(part.map((m) => `${m}:${fun}`)) : [];
          const found = part.flatMap((m, i) =>
            typeof jids[i] === 'string' ? [[m, jids[i] as string] as const] : [],
          );
          // a jid whose returns were cleaned is no answer
          const live = await Promise.all(found.map(([m, jid]) => c.hExists(`ret:${jid}`, m)));
          found.forEach(([m, jid], i) => {
            if (live[i]) out[m] = jid;
          });
        }
        return out;
      }),

    getJids: (ctx) =>
      store(ctx).read('getJids', async (c) => {
        const jids = await c.zRange('tsalt:jobs', 0, -1);
        const out: Record<string, JobSummary> = {};
        for (const part of chunks(jids, 1000)) {
          const loads = await c.mGet(part.map((j) => `load:${j}`));
          part.forEach((jid, i) => {
            const text = loads[i];
            if (typeof text === 'string')
              out[jid] = summarizeJob(jid, decodeJson(text) as Record<string, unknown>);
          });
        }
        return out;
      }),

    getMinions: (ctx) =>
      store(ctx).read('getMinions', async (c) => [...(await c.sMembers('minions'))].sort()),

    cleanOldJobs: (keepSeconds, ctx) =>
      store(ctx).read('cleanOldJobs', async (c) => {
        const old = await c.zRangeByScore('tsalt:jobs', '-inf', Date.now() - keepSeconds * 1000);
        for (const part of chunks(old, 500)) {
          const keys = part.flatMap((j) => [
            `ret:${j}`,
            `load:${j}`,
            `end:${j}`,
            `minions:${j}`,
            `tsalt:jid:${j}`,
          ]);
          await c.multi().del(keys).zRem('tsalt:jobs', part).exec();
        }
        return old.length;
      }),

    async close() {
      const all = [...stores.values()];
      stores.clear();
      await Promise.all(all.map((s) => s.close()));
    },
  });
}

export default createRedisReturner();
