/**
 * netapi under load: ~2,000 requests at once (logins, `GET /minions`, `local_async`
 * test.ping, malformed bodies, missing and forged tokens) against one API with two minions.
 * Every request gets its expected status within its own timeout, the API serves normally
 * afterwards and the master is alive. A second API with the default rate limit shows that
 * the only refusals under a flood are the rate limiter's 429s.
 */
import { writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigCached } from '../../cli/config-cache.js';
import { createLogger } from '../../kernel/log.js';
import { freePort } from '../../kernel/process/ports.js';
import { type NetapiHandle, startNetapi } from '../../plugins/netapi/server.js';
import { Cluster } from '../../tools/local-cluster.js';
import { loginToken, waitForApi } from '../../tools/netapi-http.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One HTTP request on `agent`; rejects after `timeoutMs` (a hung request fails the test). */
function call(
  agent: Agent,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url} hung for ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

interface Case {
  kind: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  expect: number;
  check?: (body: unknown) => void;
}

describe('netapi under ~2,000 concurrent requests', () => {
  let c: Cluster;
  let base = '';
  let token = '';
  const extra: NetapiHandle[] = [];
  const agent = new Agent({ keepAlive: true, maxSockets: 2500 });

  beforeAll(async () => {
    const port = await freePort();
    c = new Cluster({
      master: {
        // the flood comes from one token: no rate limit on this API (the second one has it), and
        // its 33 failed logins from this one address must not bar the 400 good ones from it
        rest_cherrypy: {
          port,
          host: '127.0.0.1',
          disable_ssl: true,
          rate_limit: 0,
          login_free_failures: 1000,
          // ... and its 2,000 connections at once from this one address must all be let in
          max_connections: 5000,
          max_connections_per_address: 5000,
        },
        netapi_enable_clients: ['local', 'local_async'],
        external_auth: { file: { '^filename': 'USERS', saltdev: ['.*', '@jobs'] } },
      },
    });
    const users = join(c.root, 'users.txt');
    writeFileSync(users, 'saltdev:saltdev\n');
    await c.writeMasterConfig();
    const { readFileSync } = await import('node:fs');
    const conf = join(c.confDir, 'master');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('"USERS"', JSON.stringify(users)));
    c.writeMasterConfig = async () => undefined;
    await c.startMaster();
    await Promise.all(['m0', 'm1'].map((id) => c.startMinion(id)));
    base = `http://127.0.0.1:${port}`;
    await waitForApi(base);
    token = await loginToken(base, 'saltdev', 'saltdev');
    // grains reach the master's data cache with the minions' first requests
    for (let i = 0; i < 100; i++) {
      const r = await fetch(`${base}/minions`, {
        headers: { 'X-Auth-Token': token, Accept: 'application/json' },
      });
      const b = (await r.json()) as { return: [Record<string, unknown>] };
      if (Object.keys(b.return[0]).length === 2) break;
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);
  afterAll(async () => {
    agent.destroy();
    for (const h of extra) await h.close();
    await c?.stop();
  });

  function cases(): Case[] {
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const authed = { ...json, 'X-Auth-Token': token };
    const login: Case = {
      kind: 'login',
      method: 'POST',
      path: '/login',
      headers: json,
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
      expect: 200,
      check: (b) => expect((b as { return: [{ token: string }] }).return[0].token).toMatch(/^[0-9a-f]{40}$/),
    };
    const minions: Case = {
      kind: 'minions',
      method: 'GET',
      path: '/minions',
      headers: { 'X-Auth-Token': token, Accept: 'application/json' },
      expect: 200,
      check: (b) => expect(Object.keys((b as { return: [object] }).return[0]).sort()).toEqual(['m0', 'm1']),
    };
    const ping: Case = {
      kind: 'local_async',
      method: 'POST',
      path: '/',
      headers: authed,
      body: JSON.stringify({ client: 'local_async', tgt: '*', fun: 'test.ping' }),
      expect: 200,
      check: (b) => {
        const r = (b as { return: [{ jid: string; minions: string[] }] }).return[0];
        expect(r.jid).toMatch(/^\d{20}$/);
        expect([...r.minions].sort()).toEqual(['m0', 'm1']);
      },
    };
    const bad: Case[] = [
      {
        kind: 'bad-json',
        method: 'POST',
        path: '/',
        headers: authed,
        body: '{"client": "local',
        expect: 400,
      },
      {
        kind: 'bad-yaml',
        method: 'POST',
        path: '/',
        headers: { ...authed, 'Content-Type': 'application/x-yaml' },
        body: 'client: [local\n  fun: :',
        expect: 400,
      },
      {
        kind: 'no-client',
        method: 'POST',
        path: '/',
        headers: authed,
        body: JSON.stringify({ tgt: '*', fun: 'test.ping' }),
        expect: 400,
      },
      {
        kind: 'no-token',
        method: 'POST',
        path: '/',
        headers: json,
        body: JSON.stringify({ client: 'local_async', tgt: '*', fun: 'test.ping' }),
        expect: 401,
      },
      {
        kind: 'forged-token',
        method: 'GET',
        path: '/minions',
        headers: { 'X-Auth-Token': 'f'.repeat(40), Accept: 'application/json' },
        expect: 401,
      },
      {
        kind: 'bad-login',
        method: 'POST',
        path: '/login',
        headers: json,
        body: '{"username": 1}',
        expect: 401,
      },
    ];
    const out: Case[] = [];
    for (let i = 0; i < 2000; i++) {
      const r = i % 20;
      // per 20: 4 logins, 6 GET /minions, 8 local_async, 2 malformed (cycling through `bad`)
      out.push(r < 4 ? login : r < 10 ? minions : r < 18 ? ping : (bad[(i >> 1) % bad.length] as Case));
    }
    return out;
  }

  it('answers every one of 2,000 concurrent requests with the right status, none hangs', async () => {
    const all = cases();
    const t0 = Date.now();
    const answers = await Promise.allSettled(
      all.map((k) => call(agent, `${base}${k.path}`, k.method, k.headers, k.body, 60_000)),
    );
    const elapsed = Date.now() - t0;
    const problems: string[] = [];
    const byKind = new Map<string, number>();
    answers.forEach((a, i) => {
      const k = all[i] as Case;
      if (a.status === 'rejected') {
        problems.push(`${k.kind}: ${(a.reason as Error).message}`);
        return;
      }
      if (a.value.status !== k.expect) {
        problems.push(`${k.kind}: ${a.value.status} ${a.value.body.slice(0, 200)}`);
        return;
      }
      const body = JSON.parse(a.value.body) as unknown;
      if (k.expect >= 400) expect((body as { error: { code: string } }).error.code).toMatch(/^NETAPI_ERR_/);
      k.check?.(body);
      byKind.set(k.kind, (byKind.get(k.kind) ?? 0) + 1);
    });
    expect(problems.slice(0, 10)).toEqual([]);
    expect(byKind.get('login')).toBe(400);
    expect(byKind.get('minions')).toBe(600);
    expect(byKind.get('local_async')).toBe(800);
    console.log(`netapi-load: 2000 concurrent requests answered in ${elapsed} ms`);
  }, 180_000);

  it('still serves afterwards, and the master is alive', async () => {
    const h = { 'X-Auth-Token': token, Accept: 'application/json', 'Content-Type': 'application/json' };
    const r = await fetch(`${base}/`, {
      method: 'POST',
      headers: h,
      body: JSON.stringify({ client: 'local', tgt: '*', fun: 'test.ping', timeout: 30 }),
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ return: [{ m0: true, m1: true }] });
    expect(c.master?.alive).toBe(true);
    const out = await c.salt(['*', 'test.ping', '--out=json', '--static']);
    expect(out.code).toBe(0);
  }, 120_000);

  it('with the default burst and a slow refill, a flood from one token gets only 200s and the limiter’s 429s', async () => {
    const port = await freePort();
    const { config } = await loadConfigCached('master', c.confDir, {
      // the default burst (200) with a refill of 10 a second: at the default 100 a second a
      // loaded runner that answers 600 requests in 4 s or more refills as fast as it serves,
      // and then nothing is refused (CI saw that). The connection caps are raised as for the
      // API above: 600 connections opened at once from one address are not what this case is
      // about, and whether they pass the default per-address cap depends on how fast their
      // first requests arrive
      rest_cherrypy: {
        port,
        host: '127.0.0.1',
        disable_ssl: true,
        rate_limit: 10,
        max_connections: 4000,
        max_connections_per_address: 3000,
      },
    });
    const h = await startNetapi(config, createLogger({ name: 'netapi-load', level: 'error' }));
    extra.push(h);
    const headers = { 'X-Auth-Token': token, Accept: 'application/json' };
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 600 }, () =>
        call(agent, `http://127.0.0.1:${port}/minions`, 'GET', headers, undefined, 60_000),
      ),
    );
    const seconds = (Date.now() - started) / 1000;
    const ok = answers.filter((a) => a.status === 200).length;
    const limited = answers.filter((a) => a.status === 429);
    expect(ok + limited.length).toBe(600);
    // the burst passes, plus what refills meanwhile, and no more
    expect(ok).toBeGreaterThanOrEqual(200);
    expect(ok).toBeLessThanOrEqual(200 + Math.ceil(10 * seconds) + 1);
    expect(limited.length).toBeGreaterThan(0);
    for (const a of limited) {
      expect(a.headers['retry-after']).toMatch(/^\d+$/);
      expect((JSON.parse(a.body) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_RATE_LIMITED');
    }
  }, 120_000);
});
