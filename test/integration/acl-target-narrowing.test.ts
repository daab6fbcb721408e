/**
 * Issue 27 item 10: a target-restricted eauth ACL against real daemons. A minion whose grains the
 * master has not cached may match a `not G@...` target on its own side: the master must count
 * it as reached (and refuse), and a restricted call goes out naming exactly the minions it was
 * authorised for.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../tools/local-cluster.js';
import {
  eauthCluster,
  postLogin,
  postLowstate,
  startTestApi,
  type TestApi,
} from '../../tools/netapi-test-api.js';

describe('netapi: target-restricted ACLs and minions with no cached data (issue 27 item 10)', () => {
  let c: Cluster;
  let api: TestApi;
  const dataFile = (id: string) => join(c.root, 'var/cache/salt/master/minions', id, 'data.p');
  const login = async (user: string, password: string) =>
    ((await (await postLogin(api.base, user, password)).json()) as { return: [{ token: string }] }).return[0]
      .token;

  beforeAll(async () => {
    c = eauthCluster(
      {
        web: { password: 'pw', acl: [{ m1: ['cmd.run'] }] },
        pair: { password: 'pw', acl: [{ 'L@m1,m2': ['cmd.run'] }] },
        admin: { password: 'pw', acl: ['.*'] },
      },
      { netapi_enable_clients: ['local', 'local_async'] },
    );
    await c.startMaster();
    await Promise.all([
      c.startMinion('m1', { grains: { role: 'web' } }),
      c.startMinion('m2', { grains: { role: 'db' } }),
      c.startMinion('m3', { grains: { role: 'db' } }),
    ]);
    for (const id of ['m1', 'm2', 'm3']) {
      for (let i = 0; i < 200 && !existsSync(dataFile(id)); i++) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(dataFile(id))).toBe(true);
    }
    // the master no longer knows m2's grains (a minion that has not reported them yet)
    rmSync(dataFile('m2'));
    api = await startTestApi(c.confDir);
  }, 90_000);
  afterAll(async () => {
    try {
      await api?.handle.close().catch(() => undefined);
    } finally {
      await c?.stop();
    }
  });

  it('refuses a `not G@...` target that may reach a minion with no cached grains', async () => {
    const token = await login('web', 'pw');
    const r = await postLowstate(api.base, token, {
      client: 'local_async',
      tgt: 'not G@nosuchgrain:x and not m3',
      tgt_type: 'compound',
      fun: 'cmd.run',
      arg: ['echo ran'],
    });
    const body = (await r.json()) as {
      error?: { code: string; message: string };
      return?: [{ jid?: string }];
    };
    // today's code published it: the master expected m1, and m2 ran it too (its return is stored)
    const jid = body.return?.[0]?.jid;
    const ran = jid ? Object.keys(await c.jobReturns(jid, (s) => 'm2' in s, 10_000)).sort() : [];
    expect(r.status, JSON.stringify({ body, ran })).toBe(403);
    expect(body.error?.code).toBe('NETAPI_ERR_FORBIDDEN');
    expect(body.error?.message).toContain('Authorization error occurred.');
    expect(body.error?.message).toContain('m2');
    expect(existsSync(dataFile('m2'))).toBe(false);
  });

  it('publishes an allowed restricted call to exactly the authorised minions', async () => {
    const token = await login('web', 'pw');
    const r = await postLowstate(api.base, token, {
      client: 'local_async',
      tgt: 'm1',
      fun: 'cmd.run',
      arg: ['echo ran'],
    });
    expect(r.status).toBe(200);
    const { jid, minions } = ((await r.json()) as { return: [{ jid: string; minions: string[] }] }).return[0];
    expect(minions).toEqual(['m1']);
    const { def, ctx } = await c.jobCache();
    const load = (await def.getLoad!(jid, ctx)) as { tgt: unknown; tgt_type: string };
    expect({ tgt: load.tgt, tgt_type: load.tgt_type }).toEqual({ tgt: ['m1'], tgt_type: 'list' });
    const rets = await c.jobReturns(jid, (s) => 'm1' in s, 15_000);
    expect(Object.keys(rets)).toEqual(['m1']);
  });

  it('a data target keeps its own test inside the authorised list', async () => {
    // m2 (no cached grains) may be role:web as far as the master knows, and `pair` may reach it;
    // its own grains say db, so it does not run the job
    const token = await login('pair', 'pw');
    const r = await postLowstate(api.base, token, {
      client: 'local',
      tgt: 'G@role:web',
      tgt_type: 'compound',
      fun: 'cmd.run',
      arg: ['echo ran'],
      timeout: 5,
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { return: [Record<string, unknown>] }).return[0]).toEqual({ m1: 'ran' });
  });

  it('an unrestricted user keeps the original target', async () => {
    const token = await login('admin', 'pw');
    const r = await postLowstate(api.base, token, {
      client: 'local_async',
      tgt: 'not G@nosuchgrain:x and not m3',
      tgt_type: 'compound',
      fun: 'test.ping',
    });
    const { jid } = ((await r.json()) as { return: [{ jid: string }] }).return[0];
    const { def, ctx } = await c.jobCache();
    const load = (await def.getLoad!(jid, ctx)) as { tgt: unknown; tgt_type: string };
    expect({ tgt: load.tgt, tgt_type: load.tgt_type }).toEqual({
      tgt: 'not G@nosuchgrain:x and not m3',
      tgt_type: 'compound',
    });
    // m2 matches it on its own side: both answer
    const rets = await c.jobReturns(jid, (s) => 'm1' in s && 'm2' in s, 15_000);
    expect(Object.keys(rets).sort()).toEqual(['m1', 'm2']);
  });
});
