/**
 * The `redis` returner against a real Redis (Debian's redis-server, started privately).
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genJid } from '../../kernel/jid.js';
import type { ReturnerContext, ReturnerDef } from '../../kernel/jobs/returner.js';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import type { JobReturn, PublishRequest } from '../../kernel/jobs/types.js';
import { silentLogger } from '../../kernel/log.js';
import { createRedisReturner } from '../../returners/redis/index.js';
import type { RedisOptions } from '../../returners/redis/options.js';
import { SKIP_DB_TESTS, startRedis, type TestServer } from '../../tools/db-servers.js';
import { Cluster } from '../../tools/local-cluster.js';
import { describeReturnerConformance } from './conformance.js';

const load = (jid: string, fun = 'test.ping'): PublishRequest => ({
  cmd: 'publish',
  tgt: '*',
  fun,
  arg: [],
  tgt_type: 'glob',
  ret: '',
  jid,
  user: 'root',
});

const ret = (id: string, jid: string, value: unknown = true, fun = 'test.ping'): JobReturn => ({
  id,
  jid,
  fun,
  fun_args: [],
  return: value,
  retcode: 0,
  success: true,
});

describe.skipIf(SKIP_DB_TESTS)('redis returner (real server)', () => {
  let server: TestServer;
  const opened: Array<[ReturnerDef<RedisOptions>, ReturnerContext<RedisOptions>]> = [];

  function instance(db: number, extra: Record<string, unknown> = {}, setup = {}) {
    const def = createRedisReturner(setup);
    const ctx = returnerContext(
      def,
      {
        id: 'master-test',
        keep_jobs_seconds: 3600,
        redis: {
          host: server.host,
          port: server.port,
          db,
          retry_interval: 0.2,
          connect_timeout: 10,
          ...extra,
        },
      },
      silentLogger(),
    );
    opened.push([def, ctx]);
    return { def, ctx };
  }

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const [def, ctx] of opened) await def.close?.(ctx);
    await server?.destroy();
  });

  it("writes Salt's key layout: ret:<jid> hash, load:<jid>, <minion>:<fun>, minions set, with the job TTL", async () => {
    const { def, ctx } = instance(2);
    const jid = await def.prepJid!(ctx);
    await def.saveLoad!(jid, load(jid), ['m1'], ctx);
    await def.returner(ret('m1', jid, { k: 'v' }), ctx);
    const raw = createClient({ socket: { host: server.host, port: server.port }, database: 2 });
    await raw.connect();
    try {
      expect(JSON.parse((await raw.hGet(`ret:${jid}`, 'm1')) ?? 'null')).toMatchObject({
        id: 'm1',
        jid,
        return: { k: 'v' },
      });
      expect(JSON.parse((await raw.get(`load:${jid}`)) ?? 'null')).toMatchObject({ fun: 'test.ping', jid });
      expect(await raw.get('m1:test.ping')).toBe(jid);
      expect(await raw.sMembers('minions')).toEqual(['m1']);
      const ttl = await raw.ttl(`ret:${jid}`);
      expect(ttl).toBeGreaterThan(3500);
      expect(ttl).toBeLessThanOrEqual(3600);
    } finally {
      await raw.close();
    }
  });

  it('cluster_mode is refused with a clear error', async () => {
    const def = createRedisReturner();
    const ctx = returnerContext(def, { redis: { cluster_mode: true } }, silentLogger());
    expect(await def.virtual!(ctx)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/cluster_mode is not supported yet/),
    });
    await expect(def.returner(ret('m1', genJid()), ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_RETURNER_UNAVAILABLE',
    });
  });

  it('two masters on one server: jids never collide', async () => {
    const fixed = genJid();
    const masters = [0, 1].map(() => instance(3, {}, { genJid: () => fixed }));
    const jids = await Promise.all(masters.flatMap(({ def, ctx }) => [def.prepJid!(ctx), def.prepJid!(ctx)]));
    expect(new Set(jids).size).toBe(4);
    expect(jids.sort()[0]).toBe(fixed);
    const [one, two] = masters as [(typeof masters)[0], (typeof masters)[0]];
    const jid = jids[3] as string;
    await one.def.saveLoad!(jid, load(jid), ['m1'], one.ctx);
    await two.def.returner(ret('m1', jid), two.ctx);
    expect(Object.keys(await one.def.getJid!(jid, one.ctx))).toEqual(['m1']);
  });

  it('while the server is down: fails fast naming the store, buffers, and writes when it is back', async () => {
    const { def, ctx } = instance(4);
    const jid = await def.prepJid!(ctx);
    await def.saveLoad!(jid, load(jid), ['m1', 'm2'], ctx);
    await server.stop();
    let later = '';
    try {
      const started = Date.now();
      const err = await def.returner(ret('m1', jid), ctx).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ code: 'SALT_ERR_RETURNER_FAILED' });
      expect((err as Error).message).toMatch(
        /returner "redis" failed in returner: Redis at .* is unreachable/,
      );
      expect(Date.now() - started).toBeLessThan(3500);
      later = await def.prepJid!(ctx);
      await def.saveLoad!(later, load(later, 'test.version'), ['m2'], ctx);
      await expect(def.returner(ret('m2', later), ctx)).rejects.toMatchObject({
        code: 'SALT_ERR_RETURNER_FAILED',
      });
      await expect(def.getJid!(jid, ctx)).rejects.toThrow(/redis/);
    } finally {
      await server.start();
    }
    await expect
      .poll(async () => Object.keys(await def.getJid!(later, ctx).catch(() => ({}))), {
        timeout: 15_000,
        interval: 300,
      })
      .toEqual(['m2']);
    expect(Object.keys(await def.getJid!(jid, ctx))).toEqual(['m1']);
    expect((await def.getLoad!(later, ctx))?.fun).toBe('test.version');
  });

  it('a master with master_job_cache: redis keeps its jobs there (salt CLI → master → minion)', async () => {
    const c = new Cluster({
      master: {
        master_job_cache: 'redis',
        redis: { host: server.host, port: server.port, db: 5, connect_timeout: 10 },
      },
    });
    try {
      await c.startMaster();
      await c.startMinion('rm1');
      const r = await c.saltJson(['rm1', 'test.ping']);
      expect(r.data).toEqual({ rm1: true });
      const { def, ctx } = instance(5);
      const jids = Object.keys(await def.getJids!(ctx));
      expect(jids.length).toBeGreaterThanOrEqual(1);
      const jid = jids.sort().at(-1) as string;
      await expect
        .poll(async () => def.getJid!(jid, ctx), { timeout: 10_000 })
        .toMatchObject({ rm1: { return: true } });
    } finally {
      await c.stop();
    }
  }, 180_000);

  describeReturnerConformance(
    'redis',
    async () => {
      const def = createRedisReturner();
      const ctx = returnerContext(
        def,
        { id: 'master-conf', redis: { host: server.host, port: server.port, db: 1, connect_timeout: 10 } },
        silentLogger(),
      );
      return { def, ctx };
    },
    { ageByJid: true },
  );
});
