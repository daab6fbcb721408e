/**
 * REST API attacks of issue 27 (items 9 to 15) against a real master and minion: each case
 * serves netapi in this process with the options it needs (tools/netapi-test-api.ts).
 */

import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { Cluster } from '../../tools/local-cluster.js';
import {
  eauthCluster,
  loginFrom,
  type PlainAnswer,
  postLogin,
  postLowstate,
  requestFrom,
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

  /** Opens `/events` and `/ws` with `token`; each promise resolves with the time its stream ended. */
  async function openStreams(
    base: string,
    token: string,
  ): Promise<{ sse: Promise<number>; ws: Promise<number> }> {
    const r = await fetch(`${base}/events`, { headers: { 'X-Auth-Token': token } });
    expect(r.status).toBe(200);
    const reader = r.body!.getReader();
    const sse = (async () => {
      while (!(await reader.read().catch(() => ({ done: true }))).done);
      return Date.now();
    })();
    const socket = new WebSocket(`${base.replace('http', 'ws')}/ws/${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const ws = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    return { sse, ws };
  }

  interface Raw {
    socket: Socket;
    /** When the server closed it. */
    closed: Promise<number>;
    /** What the server sent so far. */
    received(): string;
  }
  /** A TCP connection to `port` from the loopback address `from`, sending `data` (if any) and no more. */
  async function raw(from: string, port: number, data = ''): Promise<Raw> {
    const socket = connect({ host: '127.0.0.1', port, localAddress: from });
    let got = '';
    socket.on('data', (d) => {
      got += d.toString();
    });
    socket.on('error', () => undefined);
    const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now())));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    if (data) socket.write(data);
    return { socket, closed, received: () => got };
  }

  /** Resolves with when `ended` did, or with Infinity when it has not within `ms`. */
  const endedWithin = (ended: Promise<number>, ms: number) =>
    Promise.race([ended, new Promise<number>((r) => setTimeout(() => r(Number.POSITIVE_INFINITY), ms))]);

  beforeAll(async () => {
    c = eauthCluster(
      {
        saltdev: { password: 'saltdev', acl: ['.*', '@runner', '@wheel', '@jobs'] },
        lsonly: { password: 'pw', acl: [{ '*': [{ 'cmd.run': { args: ['ls.*'] } }] }] },
      },
      {
        netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel'],
        token_expire_user_override: true,
      },
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

  it('item 12: a malformed session cookie is no session (401 where one is needed), never a 500', async () => {
    const { base } = await api({ rate_limit: 100 });
    const Cookie = 'session_id=%E0%A4%A';
    const h = { Cookie, Accept: 'application/json' };
    const lowstate = JSON.stringify({ client: 'local', tgt: 'm1', fun: 'test.ping' });
    const calls: [string, RequestInit][] = [
      ['/minions', { headers: h }],
      ['/jobs', { headers: h }],
      ['/keys', { headers: h }],
      ['/events', { headers: h }],
      ['/', { method: 'POST', headers: { ...h, 'Content-Type': 'application/json' }, body: lowstate }],
    ];
    for (const [path, init] of calls) {
      const r = await fetch(`${base}${path}`, init);
      expect(r.status, path).toBe(401);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_UNAUTHENTICATED');
    }
    expect((await fetch(`${base}/`, { headers: h })).status).toBe(200);
    // a valid token still works beside a malformed cookie
    const token = await tokenOf(await postLogin(base, 'saltdev', 'saltdev'));
    const r = await fetch(`${base}/minions`, { headers: { ...h, 'X-Auth-Token': token } });
    expect(r.status).toBe(200);
  });

  it('item 12: minion ids with control characters are refused with NETAPI_ERR_BAD_MINION_ID', async () => {
    const { base } = await api();
    const creds = { username: 'saltdev', password: 'saltdev', eauth: 'file' };
    const postKeys = (mid: unknown) =>
      fetch(`${base}/keys`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ ...creds, mid }),
      });
    for (const mid of ['evil\r\nSet-Cookie: x=1', 'a\nb', 'tab\there', 'esc\x1b[0m']) {
      const r = await postKeys(mid);
      expect(r.status, JSON.stringify(mid)).toBe(400);
      const body = (await r.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('NETAPI_ERR_BAD_MINION_ID');
      expect(body.error.message).toContain('control characters');
    }
    const token = await tokenOf(await postLogin(base, 'saltdev', 'saltdev'));
    const auth = { 'X-Auth-Token': token, Accept: 'application/json' };
    for (const path of ['/minions/a%0D%0Ab', '/keys/a%0Ab']) {
      const r = await fetch(`${base}${path}`, { headers: auth });
      expect(r.status, path).toBe(400);
      expect(((await r.json()) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_BAD_MINION_ID');
    }
    // the wheel client's key.gen_accept refuses it too: no key is made
    const w = await postLowstate(base, token, { client: 'wheel', fun: 'key.gen_accept', id_: 'x\ny' });
    expect(w.status).toBeLessThan(500);
    const keys = await fetch(`${base}/keys`, { headers: auth });
    expect(JSON.stringify(await keys.json())).not.toMatch(/evil|x\\ny|a\\nb/);
    // an id beyond Latin-1 is valid: its tarball's file name is sent as RFC 6266 filename*
    const snow = await postKeys('snow\u2603');
    expect(snow.status).toBe(200);
    expect(snow.headers.get('content-disposition')).toBe(
      `attachment; filename="saltkeys-snow_.tar"; filename*=UTF-8''saltkeys-snow%E2%98%83.tar`,
    );
  });

  it('item 15: CORS allows only configured origins, and credentials only when asked for', async () => {
    const evil = 'https://evil.example';
    const probe = async (base: string, origin: string) => {
      const login = await postLogin(base, 'saltdev', 'saltdev', { Origin: origin });
      const pre = await fetch(`${base}/`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' },
      });
      return [login, pre].map((r) => ({
        origin: r.headers.get('access-control-allow-origin'),
        credentials: r.headers.get('access-control-allow-credentials'),
        headers: r.headers.get('access-control-allow-headers'),
      }));
    };
    const none = { origin: null, credentials: null, headers: null };
    const byDefault = await api();
    expect(await probe(byDefault.base, evil)).toEqual([none, none]);
    const listed = await api({ cors_origin: ['https://gui.example'], cors_allow_credentials: true });
    expect(await probe(listed.base, evil)).toEqual([none, none]);
    const [login, pre] = await probe(listed.base, 'https://gui.example');
    expect(login).toEqual({ origin: 'https://gui.example', credentials: 'true', headers: null });
    expect(pre?.headers).toContain('X-Auth-Token');
    const star = await api({ cors_origin: '*', cors_allow_credentials: true });
    expect((await probe(star.base, evil))[0]).toEqual({ origin: '*', credentials: null, headers: null });
  });

  it('item 11: a logged-out or expired token ends its /events and /ws streams within 2 s', async () => {
    const { base } = await api();
    const token = await tokenOf(await postLogin(base, 'saltdev', 'saltdev'));
    const streams = await openStreams(base, token);
    const other = await openStreams(base, await tokenOf(await postLogin(base, 'saltdev', 'saltdev')));
    const out = await fetch(`${base}/logout`, { method: 'POST', headers: { 'X-Auth-Token': token } });
    expect(out.status).toBe(200);
    const loggedOut = Date.now();
    for (const ended of [streams.sse, streams.ws])
      expect((await endedWithin(ended, 4000)) - loggedOut).toBeLessThan(2000);
    // another token's streams stay open
    expect(await endedWithin(other.sse, 300)).toBe(Number.POSITIVE_INFINITY);
    expect(await endedWithin(other.ws, 10)).toBe(Number.POSITIVE_INFINITY);

    const login = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file', token_expire: 2 }),
    });
    const short = ((await login.json()) as { return: [{ token: string; expire: number }] }).return[0];
    const expiring = await openStreams(base, short.token);
    for (const ended of [expiring.sse, expiring.ws])
      expect((await endedWithin(ended, 6000)) - short.expire * 1000).toBeLessThan(2000);
  });

  it('item 13: failed logins back off per address and per username, whatever X-Auth-Token is sent', async () => {
    const { base } = await api({ rate_limit: 100, login_free_failures: 3, login_backoff_max: 30 });
    const fresh = () => ({ 'X-Auth-Token': randomBytes(20).toString('hex') });
    const codeOf = (a: PlainAnswer) => (JSON.parse(a.body) as { error?: { code: string } }).error?.code;
    // the attack: a fresh random token with each guess, all from one address
    const guesses: PlainAnswer[] = [];
    for (let i = 0; i < 20; i++)
      guesses.push(await loginFrom('127.0.0.2', base, 'saltdev', `wrong${i}`, fresh()));
    const refused = guesses.filter((g) => g.status === 429);
    expect(guesses.filter((g) => g.status === 401).length).toBeLessThanOrEqual(8);
    expect(refused.length).toBeGreaterThanOrEqual(12);
    for (const r of refused) {
      expect(codeOf(r)).toBe('NETAPI_ERR_LOGIN_THROTTLED');
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
    // the username is barred from another address, even with the right password ...
    expect((await loginFrom('127.0.0.3', base, 'saltdev', 'saltdev')).status).toBe(429);
    // ... and the address for another username; others elsewhere log in
    expect((await loginFrom('127.0.0.2', base, 'lsonly', 'pw')).status).toBe(429);
    expect((await loginFrom('127.0.0.3', base, 'lsonly', 'pw')).status).toBe(200);
    // a spray of usernames from one address backs off too
    const spray: number[] = [];
    for (let i = 0; i < 12; i++) spray.push((await loginFrom('127.0.0.4', base, `nobody${i}`, 'x')).status);
    expect(spray.filter((s) => s === 401).length).toBeLessThanOrEqual(6);
    expect(spray.at(-1)).toBe(429);
  });

  it('item 13: a made-up X-Auth-Token buys no rate-limit bucket of its own', async () => {
    const { base } = await api({ rate_limit: 0.1, rate_limit_burst: 5 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++)
      statuses.push(
        (
          await requestFrom('127.0.0.5', `${base}/minions`, {
            headers: { 'X-Auth-Token': randomBytes(20).toString('hex') },
          })
        ).status,
      );
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5);
    // a valid token has its own bucket, whatever the address spent
    const token = await tokenOf(await postLogin(base, 'saltdev', 'saltdev'));
    const mine = await requestFrom('127.0.0.5', `${base}/minions`, { headers: { 'X-Auth-Token': token } });
    expect(mine.status).toBe(200);
  });

  it('item 14: slow requests are ended (headers and body), streams stay open past the limit', async () => {
    const { base, handle } = await api({ request_timeout: 2, headers_timeout: 1 });
    const token = await tokenOf(await postLogin(base, 'saltdev', 'saltdev'));
    const streams = await openStreams(base, token);
    const start = Date.now();
    const slowBody = await raw(
      '127.0.0.6',
      handle.port,
      'POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const slowHeaders = await raw('127.0.0.6', handle.port, 'GET / HTTP/1.1\r\nHost: x\r\n');
    const silent = await raw('127.0.0.6', handle.port);
    // timeouts are checked every second: 2 s + 1 s at most, with room for a busy machine
    expect((await endedWithin(slowBody.closed, 6000)) - start).toBeLessThan(5000);
    expect(slowBody.received()).toMatch(/^HTTP\/1\.1 408 /);
    for (const c of [slowHeaders, silent])
      expect((await endedWithin(c.closed, 6000)) - start).toBeLessThan(4000);
    // the event streams outlived request_timeout: both still deliver
    expect(await endedWithin(streams.sse, 10)).toBe(Number.POSITIVE_INFINITY);
    expect(await endedWithin(streams.ws, 10)).toBe(Number.POSITIVE_INFINITY);
  });

  it('item 14: unauthenticated connections are capped per address and in all, with a reserve for tokens', async () => {
    const limits = { max_connections: 40, connection_reserve: 10, max_connections_per_address: 8 };
    const { base, handle } = await api({ ...limits, request_timeout: 60, headers_timeout: 60 });
    // requestFrom closes each connection after its answer: the counts below are the test's own
    const login = await loginFrom('127.0.0.1', base, 'saltdev', 'saltdev');
    const token = (JSON.parse(login.body) as { return: [{ token: string }] }).return[0].token;
    const connections = () =>
      new Promise<number>((resolve, reject) =>
        handle.app.server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
      );
    /** Waits (bounded) until the server counts `n` connections. */
    const settle = async (n: number) => {
      for (let i = 0; i < 100 && (await connections()) !== n; i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(await connections()).toBe(n);
    };
    const held: Raw[] = [];
    // one address: 8 are kept, the other 12 closed as they come
    const flood = await Promise.all(Array.from({ length: 20 }, () => raw('127.0.1.1', handle.port)));
    held.push(...flood);
    const closedCount = async () =>
      (await Promise.all(flood.map((f) => endedWithin(f.closed, 0)))).filter(Number.isFinite).length;
    for (let i = 0; i < 100 && (await closedCount()) < 12; i++) await new Promise((r) => setTimeout(r, 20));
    expect(await closedCount()).toBe(12);
    const other = await requestFrom('127.0.1.9', `${base}/`);
    expect(other.status).toBe(200);
    await settle(8);
    // fill the 30 unauthenticated places from more addresses
    for (const from of ['127.0.1.2', '127.0.1.3', '127.0.1.4'])
      held.push(
        ...(await Promise.all(
          Array.from({ length: from === '127.0.1.4' ? 6 : 8 }, () => raw(from, handle.port)),
        )),
      );
    await settle(30);
    // past them, only a request with a valid token is served
    const anon = await requestFrom('127.0.2.1', `${base}/minions`, {
      headers: { Accept: 'application/json' },
    });
    expect(anon.status).toBe(503);
    expect((JSON.parse(anon.body) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_BUSY');
    expect(anon.headers['retry-after']).toBe('1');
    const authed = await requestFrom('127.0.2.2', `${base}/minions`, { headers: { 'X-Auth-Token': token } });
    expect(authed.status).toBe(200);
    // the reserve full of silent connections too: the oldest of them makes room
    for (let i = 0; i < 10; i++) held.push(await raw(`127.0.3.${i + 1}`, handle.port));
    await settle(40);
    const again = await requestFrom('127.0.2.3', `${base}/minions`, { headers: { 'X-Auth-Token': token } });
    expect(again.status).toBe(200);
    const stats = await requestFrom('127.0.2.4', `${base}/stats`, { headers: { 'X-Auth-Token': token } });
    const counts = (JSON.parse(stats.body) as Record<string, { Connections: Record<string, number> }>)[
      'tsalt netapi'
    ]?.Connections;
    expect(counts).toMatchObject({ refused: 12, evicted: 1 });
    for (const h of held) h.socket.destroy();
  });
});
