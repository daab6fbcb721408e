/**
 * The `postgres` job store against a real PostgreSQL (Debian's package, started privately).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { genJid } from '../../kernel/jid.js';
import type { ReturnerContext, ReturnerDef } from '../../kernel/jobs/returner.js';
import { returnerContext } from '../../kernel/jobs/returner-options.js';
import type { JobReturn, PublishRequest } from '../../kernel/jobs/types.js';
import { silentLogger } from '../../kernel/log.js';
import { createPostgresReturner } from '../../returners/postgres/index.js';
import type { PostgresOptions } from '../../returners/postgres/options.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../tools/db-servers.js';
import { Cluster } from '../../tools/local-cluster.js';
import { describeReturnerConformance } from './conformance.js';

const load = (jid: string, fun = 'test.ping', tgt: string | string[] = '*'): PublishRequest => ({
  cmd: 'publish',
  tgt,
  fun,
  arg: [],
  tgt_type: typeof tgt === 'string' ? 'glob' : 'list',
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

describe.skipIf(SKIP_DB_TESTS)('postgres returner (real server)', () => {
  let server: PostgresTestServer;
  const opened: Array<[ReturnerDef<PostgresOptions>, ReturnerContext<PostgresOptions>]> = [];

  function instance(db = 'salt', extra: Record<string, unknown> = {}) {
    const def = createPostgresReturner();
    const ctx = returnerContext(
      def,
      {
        id: 'master-test',
        postgres: {
          host: server.host,
          port: server.port,
          user: server.user,
          pass: server.password,
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
    server = await startPostgres();
  });
  afterAll(async () => {
    for (const [def, ctx] of opened) await def.close?.(ctx);
    await server?.destroy();
  });

  it('stores a job, its returns and end states, and answers every lookup', async () => {
    const { def, ctx } = instance();
    const jid = await def.prepJid!(ctx);
    expect(await def.getLoad!(jid, ctx)).toBeUndefined();
    await def.saveLoad!(jid, load(jid), ['m1', 'm2', 'm3'], ctx);
    await def.returner(
      ret('m1', jid, { bytes: Buffer.from([0, 1, 255]), nul: 'a\u0000b', big: 2n ** 70n }),
      ctx,
    );
    await expect(def.returner(ret('m1', jid), ctx)).rejects.toMatchObject({
      code: 'SALT_ERR_JOB_DUPLICATE_RETURN',
    });
    await def.saveEndState!(jid, 'm2', 'no_response', ctx);
    await def.saveEndState!(jid, 'm1', 'no_response', ctx);
    const rets = await def.getJid!(jid, ctx);
    expect(rets.m1).toEqual({
      return: { bytes: Buffer.from([0, 1, 255]), nul: 'a\u0000b', big: 2n ** 70n },
      retcode: 0,
      success: true,
    });
    expect(rets.m2).toEqual({ return: 'Minion did not return. [No response]', state: 'no_response' });
    await def.returner(ret('m2', jid), ctx);
    expect((await def.getJid!(jid, ctx)).m2).toEqual({ return: true, retcode: 0, success: true });
    expect((await def.getLoad!(jid, ctx))?.Minions).toEqual(['m1', 'm2', 'm3']);
    await def.saveMinions!(jid, ['m4'], ctx);
    expect((await def.getLoad!(jid, ctx))?.Minions?.sort()).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(await def.getFun!('test.ping', ctx)).toEqual({ m1: jid, m2: jid });
    expect(await def.getMinions!(ctx)).toEqual(['m1', 'm2']);
    const jids = await def.getJids!(ctx);
    expect(jids[jid]).toMatchObject({
      Function: 'test.ping',
      Target: '*',
      'Target-type': 'glob',
      User: 'root',
    });
  });

  it('lists jobs newest first, by function and target globs, time window and limit', async () => {
    const { def, ctx } = instance();
    const a = await def.prepJid!(ctx);
    await def.saveLoad!(a, load(a, 'pkg.install', 'web*'), ['web1'], ctx);
    const b = await def.prepJid!(ctx);
    await def.saveLoad!(b, load(b, 'pkg.remove', ['db1', 'db2']), ['db1', 'db2'], ctx);
    const c = await def.prepJid!(ctx);
    await def.saveLoad!(c, load(c, 'cmd.run', 'web1'), ['web1'], ctx);
    const list = await def.listJobs!({ searchFunction: 'pkg.*' }, ctx);
    expect(list.map((j) => j.jid)).toEqual([b, a]);
    expect(
      (await def.listJobs!({ searchFunction: ['cmd.run', 'pkg.remove'] }, ctx)).map((j) => j.jid),
    ).toEqual([c, b]);
    expect((await def.listJobs!({ searchTarget: 'db2' }, ctx)).map((j) => j.jid)).toEqual([b]);
    expect(
      (await def.listJobs!({ searchTarget: 'web1', searchFunction: 'pkg.*' }, ctx)).map((j) => j.jid),
    ).toEqual([a]);
    expect((await def.listJobs!({ searchFunction: 'pkg.*', limit: 1 }, ctx)).map((j) => j.jid)).toEqual([b]);
    const future = new Date(Date.now() + 3_600_000);
    expect(await def.listJobs!({ searchFunction: 'pkg.*', startTime: future }, ctx)).toEqual([]);
    expect((await def.listJobs!({ searchFunction: 'pkg.*', endTime: future }, ctx)).length).toBe(2);
    expect(list[0]).toMatchObject({
      Function: 'pkg.remove',
      Target: ['db1', 'db2'],
      Minions: ['db1', 'db2'],
    });
  });

  it('two masters on one database: the schema is made once and jids never collide', async () => {
    await server.createDatabase('shared');
    const fixed = genJid();
    const masters = [0, 1].map(() => {
      const def = createPostgresReturner({ genJid: () => fixed });
      const ctx = returnerContext(
        def,
        {
          postgres: {
            host: server.host,
            port: server.port,
            user: server.user,
            db: 'shared',
            connect_timeout: 10,
          },
        },
        silentLogger(),
      );
      opened.push([def, ctx]);
      return { def, ctx };
    });
    const jids = await Promise.all(masters.flatMap(({ def, ctx }) => [def.prepJid!(ctx), def.prepJid!(ctx)]));
    expect(new Set(jids).size).toBe(4);
    expect(jids.sort()[0]).toBe(fixed);
    // each master sees what the other stored
    const [one, two] = masters as [(typeof masters)[0], (typeof masters)[0]];
    const jid = jids[3] as string;
    await one.def.saveLoad!(jid, load(jid), ['m1'], one.ctx);
    await two.def.returner(ret('m1', jid), two.ctx);
    expect(Object.keys(await one.def.getJid!(jid, one.ctx))).toEqual(['m1']);
  });

  it('while the server is down: fails fast naming the store, buffers, and writes when it is back', async () => {
    await server.createDatabase('downtest');
    const { def, ctx } = instance('downtest');
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
        /returner "postgres" failed in returner: PostgreSQL at .* is unreachable/,
      );
      expect(Date.now() - started).toBeLessThan(3500);
      // a job still gets a jid and its load is kept while the store is down
      later = await def.prepJid!(ctx);
      await def.saveLoad!(later, load(later, 'test.version'), ['m2'], ctx);
      await expect(def.returner(ret('m2', later), ctx)).rejects.toMatchObject({
        code: 'SALT_ERR_RETURNER_FAILED',
      });
      await expect(def.getJid!(jid, ctx)).rejects.toThrow(/postgres/);
    } finally {
      await server.start();
    }
    // the retry timer (0.2 s here) writes the buffer without another write call
    await expect
      .poll(async () => Object.keys(await def.getJid!(later, ctx).catch(() => ({}))), {
        timeout: 15_000,
        interval: 300,
      })
      .toEqual(['m2']);
    expect(Object.keys(await def.getJid!(jid, ctx))).toEqual(['m1']);
    expect((await def.getLoad!(later, ctx))?.fun).toBe('test.version');
  });

  it('bounds the buffer: the oldest writes are dropped past buffer_size', async () => {
    await server.createDatabase('bounded');
    const { def, ctx } = instance('bounded', { buffer_size: 2 });
    const jid = await def.prepJid!(ctx);
    await server.stop();
    try {
      for (const id of ['a', 'b', 'c']) await def.returner(ret(id, jid), ctx).catch(() => undefined);
    } finally {
      await server.start();
    }
    await expect
      .poll(async () => Object.keys(await def.getJid!(jid, ctx).catch(() => ({}))), {
        timeout: 15_000,
        interval: 300,
      })
      .toEqual(['b', 'c']);
  });

  it('a master with master_job_cache: postgres keeps its jobs there (salt CLI → master → minion)', async () => {
    await server.createDatabase('master');
    const pgConf = {
      host: server.host,
      port: server.port,
      user: server.user,
      db: 'master',
      connect_timeout: 10,
      retry_interval: 0.5,
    };
    const c = new Cluster({ master: { master_job_cache: 'postgres', postgres: pgConf } });
    try {
      await c.startMaster();
      await c.startMinion('pgm1');
      const r = await c.saltJson(['pgm1', 'test.ping']);
      expect(r.data).toEqual({ pgm1: true });
      const { def, ctx } = instance('master');
      const jobs = await def.listJobs!({ searchFunction: 'test.ping' }, ctx);
      expect(jobs.length).toBeGreaterThanOrEqual(1);
      const jid = (jobs[0] as { jid: string }).jid;
      await expect
        .poll(async () => def.getJid!(jid, ctx), { timeout: 10_000 })
        .toMatchObject({ pgm1: { return: true } });
      // the database goes away: jobs still run, and their loads and returns land once it is back
      await server.stop();
      try {
        const down = await c.saltJson(['pgm1', 'test.echo', 'while-down']);
        expect(down.data).toEqual({ pgm1: 'while-down' });
      } finally {
        await server.start();
      }
      await expect
        .poll(
          async () => (await def.listJobs!({ searchFunction: 'test.echo' }, ctx).catch(() => [])).length,
          {
            timeout: 20_000,
            interval: 500,
          },
        )
        .toBe(1);
      const echo = ((await def.listJobs!({ searchFunction: 'test.echo' }, ctx))[0] as { jid: string }).jid;
      await expect
        .poll(async () => def.getJid!(echo, ctx), { timeout: 20_000, interval: 500 })
        .toMatchObject({ pgm1: { return: 'while-down' } });
    } finally {
      await c.stop();
    }
  }, 180_000);

  describeReturnerConformance(
    'postgres',
    async () => {
      await server.createDatabase('conformance');
      const def = createPostgresReturner();
      const ctx = returnerContext(
        def,
        {
          id: 'master-conf',
          postgres: {
            host: server.host,
            port: server.port,
            user: server.user,
            db: 'conformance',
            connect_timeout: 10,
          },
        },
        silentLogger(),
      );
      return { def, ctx };
    },
    { ageByJid: true },
  );
});
