/**
 * netapi streams and transports on a real master and two minions: the `/ws` WebSocket event
 * stream, TLS with a self-signed certificate (https and wss), a slow SSE consumer cut off
 * with a reason while the master and another stream keep going, and the standalone
 * `salt-api` CLI against the running master. The master runs no netapi child here: the test
 * starts netapi instances in-process with the options each case needs, then the CLI.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { loadConfigCached } from '../../cli/config-cache.js';
import { createLogger } from '../../kernel/log.js';
import { freePort } from '../../kernel/process/ports.js';
import { type NetapiHandle, startNetapi } from '../../plugins/netapi/server.js';
import { Cluster, Daemon } from '../../tools/local-cluster.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('netapi /ws, TLS, slow SSE consumers and the salt-api CLI', () => {
  let c: Cluster;
  let users = '';
  const handles: NetapiHandle[] = [];

  async function api(opts: Record<string, unknown>): Promise<NetapiHandle> {
    const port = await freePort();
    const { config } = await loadConfigCached('master', c.confDir, {
      rest_cherrypy: { port, host: '127.0.0.1', rate_limit: 0, ...opts },
    });
    const h = await startNetapi(config, createLogger({ name: 'netapi-test', level: 'error' }));
    handles.push(h);
    return h;
  }

  async function login(base: string, init: RequestInit = {}): Promise<string> {
    const r = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
      ...init,
    });
    return ((await r.json()) as { return: [{ token: string }] }).return[0].token;
  }

  const ping = (base: string, token: string, tgt = 'm0') =>
    fetch(`${base}/`, {
      method: 'POST',
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ client: 'local', tgt, fun: 'test.ping' }),
    });

  beforeAll(async () => {
    c = new Cluster({
      master: {
        netapi_enable_clients: ['local', 'local_async'],
        external_auth: { file: { '^filename': 'USERS', saltdev: ['.*', '@runner', '@wheel', '@jobs'] } },
      },
    });
    users = join(c.root, 'users.txt');
    writeFileSync(users, 'saltdev:saltdev\n');
    await c.writeMasterConfig();
    const conf = join(c.confDir, 'master');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('"USERS"', JSON.stringify(users)));
    c.writeMasterConfig = async () => undefined;
    await c.startMaster();
    await c.startMinion('m0');
    await c.startMinion('m1');
  }, 90_000);
  afterAll(async () => {
    try {
      for (const h of handles) await h.close().catch(() => undefined);
    } finally {
      await c?.stop();
    }
  });

  it('/ws streams the bus as salt-api frames; token in path, query or cookie; tag filter', async () => {
    const h = await api({ disable_ssl: true });
    const base = `http://127.0.0.1:${h.port}`;
    const token = await login(base);
    const frames: string[] = [];
    const open = (url: string, headers: Record<string, string> = {}) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(url, { headers });
        ws.once('open', () => resolve(ws));
        ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
        ws.once('error', reject);
      });
    const ws = await open(`ws://127.0.0.1:${h.port}/ws/${token}`);
    ws.on('message', (m) => frames.push(String(m)));
    ws.send('websocket client ready');
    const filtered = await open(`ws://127.0.0.1:${h.port}/ws?tag=salt/job/`, {
      Cookie: `session_id=${token}`,
    });
    const fFrames: string[] = [];
    filtered.on('message', (m) => fFrames.push(String(m)));
    const byQuery = await open(`ws://127.0.0.1:${h.port}/ws?salt_token=${token}`);
    byQuery.close();
    await sleep(200);
    expect(await (await ping(base, token)).json()).toEqual({ return: [{ m0: true }] });
    await fetch(`${base}/hook/from/test`, {
      method: 'POST',
      headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
      body: '{"a": 1}',
    });
    for (let i = 0; i < 50 && !frames.some((f) => f.includes('salt/netapi/hook/from/test')); i++)
      await sleep(100);
    const parsed = frames.map((f) => {
      expect(f.startsWith('data: ')).toBe(true);
      expect(f.endsWith('\n\n')).toBe(true);
      return JSON.parse(f.slice(6)) as { tag: string; data: Record<string, unknown> };
    });
    const tags = parsed.map((p) => p.tag);
    expect(tags.some((t) => /^salt\/job\/\d{20}\/new$/.test(t))).toBe(true);
    expect(tags.some((t) => /^salt\/job\/\d{20}\/ret\/m0$/.test(t))).toBe(true);
    expect(tags).toContain('salt/netapi/hook/from/test');
    const ret = parsed.find((p) => p.tag.endsWith('/ret/m0'));
    expect(ret?.data).toMatchObject({ id: 'm0', return: true, fun: 'test.ping' });
    // key order as salt-api: {"data": ..., "tag": ...}
    expect(frames[0]?.startsWith('data: {"data": ')).toBe(true);
    expect(fFrames.length).toBeGreaterThan(0);
    for (const f of fFrames) expect(f).toMatch(/"tag": "salt\/job\//);
    ws.close();
    filtered.close();
    await expect(open(`ws://127.0.0.1:${h.port}/ws/${'0'.repeat(40)}`)).rejects.toThrow('HTTP 401');
    await expect(open(`ws://127.0.0.1:${h.port}/ws`)).rejects.toThrow('HTTP 401');
    // an upgrade to a URL that does not parse is refused, and the API keeps serving
    await new Promise<void>((resolve) => {
      const s = connect(h.port, '127.0.0.1', () => {
        s.write('GET // HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
      });
      s.on('data', () => s.destroy());
      s.on('close', () => resolve());
      s.on('error', () => resolve());
    });
    expect((await fetch(`${base}/`)).status).toBe(200);
  }, 60_000);

  it('TLS: https and wss with ssl_crt/ssl_key; plain http refused; both are needed', async () => {
    const crt = join(c.root, 'api.crt');
    const key = join(c.root, 'api.key');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        crt,
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost',
      ],
      { stdio: 'ignore' },
    );
    const ca = readFileSync(crt);
    const h = await api({ disable_ssl: false, ssl_crt: crt, ssl_key: key });
    const get = (path: string, method = 'GET', body?: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpsRequest({ host: '127.0.0.1', port: h.port, path, method, ca, headers }, (res) => {
          let b = '';
          res.on('data', (d: Buffer) => {
            b += d.toString();
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: b }));
        });
        req.on('error', reject);
        req.end(body);
      });
    const root = await get('/', 'GET', undefined, { Accept: 'application/json' });
    expect(root.status).toBe(200);
    expect(JSON.parse(root.body)).toMatchObject({ return: 'Welcome' });
    const li = await get(
      '/login',
      'POST',
      JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
      { 'Content-Type': 'application/json' },
    );
    expect(li.status).toBe(200);
    const token = (JSON.parse(li.body) as { return: [{ token: string }] }).return[0].token;
    const run = await get('/', 'POST', JSON.stringify({ client: 'local', tgt: '*', fun: 'test.ping' }), {
      'Content-Type': 'application/json',
      'X-Auth-Token': token,
    });
    expect(JSON.parse(run.body)).toEqual({ return: [{ m0: true, m1: true }] });
    // plain HTTP on the TLS port gets no API answer
    const plain = await fetch(`http://127.0.0.1:${h.port}/`).then(
      (r) => r.status,
      () => 'refused',
    );
    expect(plain).not.toBe(200);
    // wss on the same server
    const ws = new WebSocket(`wss://127.0.0.1:${h.port}/ws/${token}`, { ca });
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    ws.close();
    // an untrusted certificate is refused by a verifying client
    await expect(fetch(`https://127.0.0.1:${h.port}/`)).rejects.toThrow();
    // TLS needs both files unless disable_ssl
    await expect(api({ disable_ssl: false, ssl_crt: crt })).rejects.toMatchObject({
      code: 'NETAPI_ERR_OPTIONS',
    });
  }, 60_000);

  it('a slow SSE consumer is cut off with a reason; the master and other streams keep going', async () => {
    // the instances of the tests before would only add load to this process
    for (const old of handles.splice(0)) await old.close();
    const h = await api({ disable_ssl: true, sse_max_buffer: 2 * 1024 * 1024 });
    const base = `http://127.0.0.1:${h.port}`;
    const token = await login(base);
    // the slow one: a raw socket that reads the headers, then stops reading
    const slow = connect(h.port, '127.0.0.1');
    let slowText = '';
    let slowClosed = false;
    let paused = false;
    slow.on('data', (d: Buffer) => {
      slowText += d.toString();
      if (!paused && slowText.includes('retry: 400')) {
        paused = true;
        slow.pause();
      }
    });
    slow.on('close', () => {
      slowClosed = true;
    });
    slow.on('error', () => undefined);
    slow.write(
      `GET /events?tag=salt/netapi/hook/flood HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\n\r\n`,
    );
    // the healthy one reads everything: curl in its own process, so its reading does not
    // depend on this (busy) event loop
    const fastFile = join(c.root, 'fast-sse.txt');
    const curl = spawn(
      'curl',
      ['-sN', '-H', `X-Auth-Token: ${token}`, '-o', fastFile, `${base}/events?tag=salt/netapi/hook/flood`],
      { stdio: 'ignore' },
    );
    const fastText = () => (existsSync(fastFile) ? readFileSync(fastFile, 'latin1') : '');
    const fastCount = () => fastText().split('tag: salt/netapi/hook/flood/').length - 1;
    for (let i = 0; i < 100 && !fastText().includes('retry: 400'); i++) await sleep(50);
    for (let i = 0; i < 50 && !slowText.includes('retry: 400'); i++) await sleep(50);
    expect(slowText).toContain('retry: 400');
    // 300 events of ~100 KiB each: far more than the socket buffers plus sse_max_buffer
    const big = JSON.stringify({ pad: 'x'.repeat(50_000) });
    const N = 300;
    for (let i = 0; i < N; i++) {
      const r = await fetch(`${base}/hook/flood/${i}`, {
        method: 'POST',
        headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json' },
        body: big,
      });
      expect(r.status).toBe(200);
    }
    // the master keeps answering while the slow reader sits there
    expect(await (await ping(base, token, 'm1')).json()).toEqual({ return: [{ m1: true }] });
    let stats: Record<string, number> = {};
    for (let i = 0; i < 100; i++) {
      stats = (
        (await (await fetch(`${base}/stats`, { headers: { 'X-Auth-Token': token } })).json()) as {
          'tsalt netapi': Record<string, number>;
        }
      )['tsalt netapi'];
      if ((stats['Slow Consumers Dropped'] ?? 0) >= 1 && fastCount() >= N) break;
      await sleep(100);
    }
    expect(stats['Slow Consumers Dropped']).toBe(1);
    expect(fastCount()).toBe(N);
    expect(stats['SSE Clients']).toBe(1);
    // the slow reader, reading again, finds the reason at the end of its stream
    slow.resume();
    for (let i = 0; i < 100 && !slowClosed; i++) await sleep(50);
    expect(slowClosed).toBe(true);
    expect(slowText).toMatch(/event: error\ndata: \{"reason": "slow consumer: more than 2097152 bytes/);
    curl.kill();
    expect(await (await ping(base, token, 'm0')).json()).toEqual({ return: [{ m0: true }] });
  }, 120_000);

  it('closing the API does not wait for open event streams', async () => {
    for (const old of handles.splice(0)) await old.close();
    const h = await api({ disable_ssl: true });
    const base = `http://127.0.0.1:${h.port}`;
    const token = await login(base);
    const sse = connect(h.port, '127.0.0.1');
    let sseClosed = false;
    sse.on('data', () => undefined);
    sse.on('close', () => {
      sseClosed = true;
    });
    sse.on('error', () => undefined);
    sse.write(`GET /events HTTP/1.1\r\nHost: x\r\nX-Auth-Token: ${token}\r\n\r\n`);
    const ws = new WebSocket(`ws://127.0.0.1:${h.port}/ws/${token}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    const wsClosed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    handles.splice(handles.indexOf(h), 1);
    const t0 = Date.now();
    const done = await Promise.race([h.close().then(() => 'closed'), sleep(5000).then(() => 'hung')]);
    expect(done).toBe('closed');
    expect(Date.now() - t0).toBeLessThan(3000);
    await wsClosed;
    for (let i = 0; i < 20 && !sseClosed; i++) await sleep(50);
    expect(sseClosed).toBe(true);
  }, 30_000);

  it('the salt-api CLI starts against the running master and serves /login', async () => {
    // no rest_cherrypy block yet: a clear error, exit 2
    const none = await c.run('salt-api', []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('no REST API configured');
    const port = await freePort();
    const conf = join(c.confDir, 'master');
    writeFileSync(
      conf,
      `${readFileSync(conf, 'utf8')}rest_cherrypy: {"port": ${port}, "host": "127.0.0.1", "disable_ssl": true}\n`,
    );
    const d = new Daemon('salt-api', 'salt-api', ['-c', c.confDir, '-l', 'info']);
    try {
      await d.waitFor('salt-api started', 30_000);
      const base = `http://127.0.0.1:${port}`;
      const token = await login(base);
      expect(token).toMatch(/^[0-9a-f]{40}$/);
      expect(await (await ping(base, token, 'm1')).json()).toEqual({ return: [{ m1: true }] });
      const bad = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'saltdev', password: 'nope', eauth: 'file' }),
      });
      expect(bad.status).toBe(401);
    } finally {
      expect(await d.stop()).toBe(0);
    }
  }, 60_000);
});
