/**
 * REST API attacks of issue 27 (items 9 to 15) against a real master and minion: each case
 * serves netapi in this process with the options it needs (tools/netapi-test-api.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../tools/local-cluster.js';
import {
  eauthCluster,
  postLogin,
  postLowstate,
  startTestApi,
  type TestApi,
} from '../../tools/netapi-test-api.js';

describe('netapi: REST API security (issue 27)', () => {
  let c: Cluster;
  const apis: TestApi[] = [];
  const api = async (opts: Record<string, unknown> = {}) => {
    const a = await startTestApi(c.confDir, opts);
    apis.push(a);
    return a;
  };
  const tokenOf = async (r: Response) =>
    ((await r.json()) as { return: [{ token: string }] }).return[0].token;

  beforeAll(async () => {
    c = eauthCluster(
      {
        saltdev: { password: 'saltdev', acl: ['.*', '@runner', '@wheel', '@jobs'] },
        lsonly: { password: 'pw', acl: [{ '*': [{ 'cmd.run': { args: ['ls.*'] } }] }] },
      },
      { netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel'] },
    );
    await c.startMaster();
    await c.startMinion('m1');
  }, 90_000);
  afterAll(async () => {
    try {
      for (const a of apis) await a.handle.close().catch(() => undefined);
    } finally {
      await c?.stop();
    }
  });

  it('item 9: an argument-restricted ACL holds against k=v words that shift the positionals', async () => {
    const { base } = await api();
    const token = await tokenOf(await postLogin(base, 'lsonly', 'pw'));
    const run = (arg: unknown[]) =>
      postLowstate(base, token, { client: 'local', tgt: 'm1', fun: 'cmd.run', arg });
    const ok = await run(['ls -d /']);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ return: [{ m1: '/' }] });
    // `ls=1` becomes a keyword on the minion and `id -u` the command: refused before publishing
    for (const arg of [
      ['ls=1', 'id -u'],
      ['ls=1', { __kwarg__: true, x: 1 }, 'id -u'],
    ]) {
      const r = await run(arg);
      expect(r.status, JSON.stringify(arg)).toBe(403);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_FORBIDDEN');
    }
  });
});
