/**
 * netapi on a real master and three minions: the `local_batch` and `local_subset` clients,
 * `POST /keys` (a tarball of a new key pair, as salt-api), `POST /token`, `GET /keys/:id`,
 * and webhooks with token auth, a shared secret and `webhook_disable_auth` (the last two
 * served by extra in-process netapi instances against the same master).
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigCached } from '../../cli/config-cache.js';
import { createLogger } from '../../kernel/log.js';
import { freePort } from '../../kernel/process/ports.js';
import { type NetapiHandle, startNetapi } from '../../plugins/netapi/server.js';
import { Cluster } from '../../tools/local-cluster.js';
import { waitForApi } from '../../tools/netapi-http.js';

/** Reads SSE text from `r` until `until` matches or `ms` pass. */
async function readSse(r: Response, until: RegExp, ms: number): Promise<string> {
  const reader = r.body!.getReader();
  let text = '';
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString();
      if (until.test(text)) break;
    }
  })();
  await Promise.race([reading, new Promise((res) => setTimeout(res, ms))]);
  await reader.cancel().catch(() => undefined);
  return text;
}

/** A real PAM login needs root (to add a throw-away user) and Debian's pamtester. */
const realPam =
  process.getuid?.() === 0 && existsSync('/usr/bin/pamtester') && existsSync('/usr/sbin/useradd');
const pamUser = `tsaltapi${process.pid}`;

describe('netapi clients local_batch/local_subset, /keys, /token, webhooks', () => {
  let c: Cluster;
  let base = '';
  let token = '';
  const extra: NetapiHandle[] = [];
  const auth = () => ({ 'X-Auth-Token': token, Accept: 'application/json' });
  const post = (body: unknown) =>
    fetch(`${base}/`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Another netapi on the same master with other rest_cherrypy options. */
  async function extraApi(opts: Record<string, unknown>): Promise<string> {
    const port = await freePort();
    const { config } = await loadConfigCached('master', c.confDir, {
      rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0, ...opts },
    });
    const h = await startNetapi(config, createLogger({ name: 'netapi-test', level: 'error' }));
    extra.push(h);
    return `http://127.0.0.1:${h.port}`;
  }

  beforeAll(async () => {
    const port = await freePort();
    c = new Cluster({
      master: {
        rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0 },
        netapi_enable_clients: ['local', 'local_async', 'local_batch', 'local_subset', 'wheel'],
        external_auth: {
          file: {
            '^filename': 'USERS',
            saltdev: ['.*', '@runner', '@wheel', '@jobs'],
            nokeys: ['test.*'],
          },
          pam: { [pamUser]: ['test.*'] },
        },
      },
    });
    const users = join(c.root, 'users.txt');
    writeFileSync(users, 'saltdev:saltdev\nnokeys:pw\n');
    await c.writeMasterConfig();
    const conf = join(c.confDir, 'master');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('"USERS"', JSON.stringify(users)));
    c.writeMasterConfig = async () => undefined;
    await c.startMaster();
    // m1's shell takes 3 s longer: a batch's slow member (cmd.run's default shell is the minion
    // process's $SHELL, Salt's DEFAULT_SHELL; the minion is spawned at once, with it set)
    const slowShell = join(c.root, 'slow-sh');
    writeFileSync(slowShell, '#!/bin/sh\nsleep 3\nexec /bin/sh "$@"\n', { mode: 0o755 });
    const shell = process.env.SHELL;
    process.env.SHELL = slowShell;
    const slow = c.startMinion('m1');
    if (shell === undefined) delete process.env.SHELL;
    else process.env.SHELL = shell;
    await Promise.all([slow, c.startMinion('m0'), c.startMinion('m2')]);
    base = `http://127.0.0.1:${port}`;
    await waitForApi(base);
    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
    });
    token = ((await login.json()) as { return: [{ token: string }] }).return[0].token;
  }, 120_000);
  afterAll(async () => {
    if (realPam) {
      try {
        execFileSync('/usr/sbin/userdel', [pamUser], { stdio: 'ignore' });
      } catch {
        // never created
      }
    }
    for (const h of extra) await h.close();
    await c?.stop();
  });

  it('local_batch: one {minion: return} entry per minion, batch by count and percent', async () => {
    const r = await post({ client: 'local_batch', tgt: '*', fun: 'test.ping', batch: '1' });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { return: Record<string, unknown>[] };
    expect(body.return).toHaveLength(3);
    for (const e of body.return) expect(Object.keys(e)).toHaveLength(1);
    expect(Object.assign({}, ...body.return)).toEqual({ m0: true, m1: true, m2: true });
    // a dict return comes as the minion returned it (Salt's cmd_batch runs its Batch quiet: no retcode added)
    const p = await post({
      client: 'local_batch',
      tgt: 'm*',
      fun: 'test.arg',
      arg: ['x'],
      kwarg: { k: 'v' },
      batch: '50%',
    });
    const pb = (await p.json()) as { return: Record<string, { args: unknown[]; retcode?: number }>[] };
    expect(pb.return).toHaveLength(3);
    for (const e of pb.return) {
      const [ret] = Object.values(e);
      expect(ret?.args).toEqual(['x']);
      expect(ret).not.toHaveProperty('retcode');
    }
    const none = await post({ client: 'local_batch', tgt: 'nosuch*', fun: 'test.ping', batch: '1' });
    expect(await none.json()).toEqual({ return: [] });
    const bad = await post({ client: 'local_batch', tgt: '*', fun: 'test.ping', batch: 'lots' });
    expect(bad.status).toBe(400);
  }, 60_000);

  it('local_batch is a sliding window: a freed slot takes the next minion at once', async () => {
    const stream = await fetch(`${base}/events?tag=salt/job/`, { headers: auth() });
    // everything up to the cmd.run return of m1 (the ping's ret/m1 comes first)
    const collected = readSse(stream, /"fun": "cmd\.run"[^\n]*\/ret\/m1"\}/, 30_000);
    await new Promise((r) => setTimeout(r, 200));
    const r = await post({
      client: 'local_batch',
      tgt: 'm*',
      fun: 'cmd.run',
      arg: ['sleep 1; echo done'],
      batch: 2,
      timeout: 15,
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { return: Record<string, string>[] };
    // m0 and m1 start together; m2 takes m0's slot when m0 returns, and returns before m1
    expect(body.return).toEqual([{ m0: 'done' }, { m2: 'done' }, { m1: 'done' }]);
    const events = [...(await collected).matchAll(/^data: (.*)$/gm)].map(
      (m) => JSON.parse(m[1] as string) as { tag: string; data: { fun?: string; minions?: string[] } },
    );
    const batchJobs = events.filter((e) => e.tag.endsWith('/new') && e.data.fun === 'cmd.run');
    expect(batchJobs.map((e) => e.data.minions)).toEqual([['m0', 'm1'], ['m2']]);
    const at = (pred: (e: (typeof events)[number]) => boolean) => events.findIndex(pred);
    const m2New = at((e) => e === batchJobs[1]);
    expect(m2New).toBeGreaterThan(at((e) => /\/ret\/m0$/.test(e.tag) && e.data.fun === 'cmd.run'));
    expect(m2New).toBeLessThan(at((e) => /\/ret\/m1$/.test(e.tag) && e.data.fun === 'cmd.run'));
  }, 60_000);

  it('local_batch: a bad batch, batch_wait or failhard is a clear 400 and runs nothing', async () => {
    for (const bad of [
      { batch: 'lots' },
      { batch: '0' },
      { batch: -2 },
      { batch: '1.5' },
      { batch: true },
      { batch: ['1'] },
      { batch: '1', batch_wait: 'soon' },
      { batch: '1', batch_wait: -1 },
      { batch: '1', failhard: 'maybe' },
    ]) {
      const r = await post({ client: 'local_batch', tgt: 'nosuch*', fun: 'test.ping', ...bad });
      expect(r.status, JSON.stringify(bad)).toBe(400);
      const b = (await r.json()) as { error: { code: string; message: string } };
      expect(b.error.message).toMatch(/batch|failhard/);
    }
  }, 30_000);

  it('local_subset: `subset` (or `sub`) minions that have the function, at random', async () => {
    const r = await post({ client: 'local_subset', tgt: '*', fun: 'test.ping', subset: 2 });
    expect(r.status).toBe(200);
    const body = (await r.json()) as { return: [Record<string, boolean>] };
    expect(body.return).toHaveLength(1);
    const ids = Object.keys(body.return[0]);
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(['m0', 'm1', 'm2']).toContain(id);
    expect(Object.values(body.return[0])).toEqual([true, true]);
    const one = await post({ client: 'local_subset', tgt: '*', fun: 'test.ping', sub: 1 });
    expect(Object.keys(((await one.json()) as { return: [object] }).return[0])).toHaveLength(1);
    const dflt = await post({ client: 'local_subset', tgt: '*', fun: 'test.ping' });
    expect(Object.keys(((await dflt.json()) as { return: [object] }).return[0])).toHaveLength(3);
    // no minion has the function: nothing runs
    const nofun = await post({ client: 'local_subset', tgt: '*', fun: 'nosuch.fun', subset: 1 });
    expect(await nofun.json()).toEqual({ return: [{}] });
    expect((await post({ client: 'local_subset', tgt: '*', fun: 'test.ping', subset: 0 })).status).toBe(400);
  }, 60_000);

  it('POST /keys returns a tarball of a fresh accepted key pair', async () => {
    const r = await fetch(`${base}/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'mid=newbox&username=saltdev&password=saltdev&eauth=file',
    });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('application/x-tar');
    expect(r.headers.get('content-disposition')).toBe('attachment; filename="saltkeys-newbox.tar"');
    const tar = Buffer.from(await r.arrayBuffer());
    expect(Number(r.headers.get('content-length'))).toBe(tar.length);
    const dir = join(c.root, 'keytar');
    mkdirSync(dir);
    writeFileSync(join(dir, 'k.tar'), tar);
    expect(execFileSync('tar', ['-tf', 'k.tar'], { cwd: dir, encoding: 'utf8' })).toBe(
      'minion.pub\nminion.pem\n',
    );
    execFileSync('tar', ['-xf', 'k.tar'], { cwd: dir });
    const pub = readFileSync(join(dir, 'minion.pub'), 'utf8');
    const priv = readFileSync(join(dir, 'minion.pem'), 'utf8');
    expect(pub).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(priv).toMatch(/^-----BEGIN (RSA )?PRIVATE KEY-----\n/);
    // the pair matches, and the master accepted the public half
    const derived = createPublicKey(createPrivateKey(priv)).export({ type: 'spki', format: 'pem' });
    expect(String(derived).trim()).toBe(pub.trim());
    expect(createPublicKey(pub).asymmetricKeyDetails?.modulusLength).toBe(2048);
    const keys = (await (await fetch(`${base}/keys`, { headers: auth() })).json()) as {
      return: { minions: string[] };
    };
    expect(keys.return.minions).toContain('newbox');
    const accepted = readFileSync(join(c.root, 'etc/salt/pki/master/minions/newbox'), 'utf8');
    expect(accepted.trim()).toBe(pub.trim());

    const json = (b: Record<string, unknown>) =>
      fetch(`${base}/keys`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file', ...b }),
      });
    const again = await json({ mid: 'newbox' });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { return: string }).return).toContain('force');
    const forced = await json({ mid: 'newbox', force: true, keysize: 3072 });
    expect(forced.status).toBe(200);
    await forced.arrayBuffer();
    expect((await json({ mid: '../etc' })).status).toBe(400);
    expect((await json({ mid: 'x', keysize: 512 })).status).toBe(400);
    expect((await json({ mid: 'y', password: 'wrong' })).status).toBe(401);
    const denied = await fetch(`${base}/keys`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ mid: 'z', username: 'nokeys', password: 'pw', eauth: 'file' }),
    });
    expect(denied.status).toBe(403);
  }, 60_000);

  it.skipIf(!realPam)(
    'eauth pam (pamtester): a system user logs in with its password, nobody else',
    async () => {
      execFileSync('/usr/sbin/useradd', ['-M', '-s', '/usr/sbin/nologin', pamUser]);
      execFileSync('/usr/sbin/chpasswd', [], { input: `${pamUser}:pam api pw\n` });
      const login = (password: string, username = pamUser) =>
        fetch(`${base}/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ username, password, eauth: 'pam' }),
        });
      const ok = await login('pam api pw');
      expect(ok.status).toBe(200);
      const body = (await ok.json()) as { return: [{ token: string; eauth: string; perms: unknown[] }] };
      expect(body.return[0].eauth).toBe('pam');
      expect(body.return[0].perms).toEqual(['test.*']);
      const ping = await fetch(`${base}/`, {
        method: 'POST',
        headers: { 'X-Auth-Token': body.return[0].token, 'Content-Type': 'application/json' },
        body: JSON.stringify({ client: 'local', tgt: 'm0', fun: 'test.ping' }),
      });
      expect(await ping.json()).toEqual({ return: [{ m0: true }] });
      expect((await login('wrong')).status).toBe(401);
      expect((await login('pam api pw\nmore')).status).toBe(401);
      // a user PAM knows but external_auth:pam does not list
      expect((await login('x', 'root')).status).toBe(401);
    },
    60_000,
  );

  it('POST /token gives a token usable as X-Auth-Token; GET /keys/:id', async () => {
    const r = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
    });
    expect(r.status).toBe(200);
    const b = (await r.json()) as [
      { token: string; start: number; expire: number; name: string; eauth: string },
    ];
    expect(b).toHaveLength(1);
    expect(b[0]).toMatchObject({ name: 'saltdev', eauth: 'file' });
    expect(b[0].token).toMatch(/^[0-9a-f]{40}$/);
    expect(b[0].expire).toBeGreaterThan(b[0].start);
    const use = await fetch(`${base}/`, {
      method: 'POST',
      headers: { 'X-Auth-Token': b[0].token, 'Content-Type': 'application/json' },
      body: JSON.stringify({ client: 'local', tgt: 'm1', fun: 'test.ping' }),
    });
    expect(await use.json()).toEqual({ return: [{ m1: true }] });
    const bad = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'nope', eauth: 'file' }),
    });
    expect(bad.status).toBe(401);

    const k = await fetch(`${base}/keys/m2`, { headers: auth() });
    expect(k.status).toBe(200);
    const kb = (await k.json()) as { return: { minions: Record<string, string> } };
    expect(Object.keys(kb.return.minions)).toEqual(['m2']);
    expect(kb.return.minions.m2).toMatch(/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
    const none = await fetch(`${base}/keys/nosuch`, { headers: auth() });
    expect(none.status).toBe(200);
    const nb = (await none.json()) as { return: Record<string, Record<string, string>> };
    for (const v of Object.values(nb.return)) expect(v).toEqual({});
    expect((await fetch(`${base}/keys/m*`, { headers: auth() })).status).toBe(400);
    expect((await fetch(`${base}/keys/m2`)).status).toBe(401);
  });

  it('webhooks: token auth, shared secret (header or HMAC), webhook_disable_auth', async () => {
    const ac = new AbortController();
    const events = await fetch(`${base}/events?tag=salt/netapi/hook/`, {
      headers: auth(),
      signal: ac.signal,
    });
    const seen = readSse(
      events,
      /tag: salt\/netapi\/hook\/open\/door[\s\S]*tag: salt\/netapi\/hook\/signed/,
      10_000,
    );
    await new Promise((r) => setTimeout(r, 200));

    const hook = await fetch(`${base}/hook/ci/build`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/json', 'X-Custom': 'yes' },
      body: JSON.stringify({ ref: 'main' }),
    });
    expect(await hook.json()).toEqual({ success: true });

    const secretBase = await extraApi({ webhook_secret: 's3cret', webhook_disable_auth: true });
    const body = '{"action": "opened"}';
    const sh = (headers: Record<string, string>, path = 'signed') =>
      fetch(`${secretBase}/hook/${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
    expect((await sh({})).status).toBe(401);
    expect((await sh({ 'X-Hook-Secret': 'wrong' })).status).toBe(401);
    expect((await sh({ 'X-Hub-Signature-256': 'sha256=00' })).status).toBe(401);
    const { createHmac } = await import('node:crypto');
    const sig = `sha256=${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
    expect((await sh({ 'X-Hub-Signature-256': sig }, 'hmac')).status).toBe(200);

    const openBase = await extraApi({ webhook_disable_auth: true, webhook_url: '/incoming' });
    const open = await fetch(`${openBase}/incoming/open/door`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'who=bob&n=1',
    });
    expect(open.status).toBe(200);
    expect((await fetch(`${openBase}/hook/open/door`, { method: 'POST' })).status).toBe(404);
    // the default API still wants a token
    expect((await fetch(`${base}/hook/open/door`, { method: 'POST' })).status).toBe(401);
    expect((await sh({ 'X-Hook-Secret': 's3cret' })).status).toBe(200);

    const text = await seen;
    ac.abort();
    const events2 = [...text.matchAll(/^data: (.*)$/gm)].map(
      (m) => JSON.parse(m[1] as string) as { tag: string; data: Record<string, unknown> },
    );
    const byTag = new Map(events2.map((e) => [e.tag, e.data]));
    const ci = byTag.get('salt/netapi/hook/ci/build');
    expect(ci?.body).toBe('{"ref":"main"}');
    expect(ci?.post).toEqual({ ref: 'main' });
    const headers = (ci?.headers ?? {}) as Record<string, string>;
    expect(headers['X-Custom']).toBe('yes');
    expect(headers['X-Auth-Token']).toBeUndefined();
    expect(byTag.get('salt/netapi/hook/hmac')?.post).toEqual({ action: 'opened' });
    expect(byTag.get('salt/netapi/hook/open/door')?.post).toEqual({ who: 'bob', n: '1' });
    expect(byTag.get('salt/netapi/hook/signed')?.body).toBe(body);
  }, 60_000);
});
