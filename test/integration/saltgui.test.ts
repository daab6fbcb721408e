/**
 * SaltGUI (github.com/erwindon/SaltGUI) against tsalt's netapi: the requests its
 * `static/scripts/Api.js` makes (same headers: `Accept: application/json`, `Cache-Control:
 * no-cache`, `X-Auth-Token` possibly empty, a JSON string body that browsers send as
 * `text/plain`; `EventSource` on `/events` with only the session cookie), replayed at login,
 * the minions, keys and jobs pages, the event stream, running a command and logout, checking
 * the answers hold the fields SaltGUI reads. SaltGUI is served the way its README deploys it:
 * rest_cherrypy `app` + `static`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster } from '../../tools/local-cluster.js';
import { waitForApi } from '../../tools/netapi-http.js';

type Json = Record<string, unknown>;
/** `{return: [{tag, data: {return, ...}}]}` of a wheel call. */
type WheelAnswer<T> = { return: [{ data: { return: T; success: boolean } }] };

describe('SaltGUI against tsalt netapi', () => {
  let c: Cluster;
  let base = '';
  let token = '';
  let cookie = '';
  const INDEX = '<!doctype html><title>SaltGUI</title><script src="static/scripts/index.js"></script>';

  /** SaltGUI's `apiRequest`. */
  async function apiRequest(method: 'GET' | 'POST', page: string, params: Json = {}): Promise<Response> {
    const headers: Record<string, string> = {
      Accept: page.endsWith('.txt')
        ? 'text/plain'
        : page.endsWith('.html')
          ? 'text/html'
          : 'application/json',
      'Cache-Control': 'no-cache',
      'X-Auth-Token': token,
    };
    // a browser's fetch sends a string body as text/plain;charset=UTF-8, as undici does here
    return fetch(`${base}${page}`, {
      method,
      headers,
      ...(method === 'POST' && { body: JSON.stringify(params) }),
    });
  }
  async function ok<T>(method: 'GET' | 'POST', page: string, params: Json = {}): Promise<T> {
    const r = await apiRequest(method, page, params);
    expect(r.status, `${method} ${page} ${JSON.stringify(params)}`).toBe(200);
    return (await r.json()) as T;
  }

  beforeAll(async () => {
    const port = await freePort();
    const master: Json = { netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel'] };
    c = new Cluster({ master });
    const gui = join(c.root, 'saltgui');
    mkdirSync(join(gui, 'static', 'scripts'), { recursive: true });
    writeFileSync(join(gui, 'index.html'), INDEX);
    writeFileSync(join(gui, 'static', 'scripts', 'index.js'), 'export {};\n');
    writeFileSync(join(gui, 'static', 'minions.txt'), 'm0\tweb\n');
    writeFileSync(join(c.root, 'secret.txt'), 'secret');
    const users = join(c.root, 'users.txt');
    writeFileSync(users, 'gui:guipw\n');
    Object.assign(master, {
      rest_cherrypy: {
        port,
        host: '127.0.0.1',
        disable_ssl: true,
        app: join(gui, 'index.html'),
        static: join(gui, 'static'),
        static_path: '/static',
      },
      external_auth: { file: { '^filename': users, gui: ['.*', '@runner', '@wheel', '@jobs'] } },
    });
    await c.startMaster();
    // m0 runs a beacon (a load range no machine leaves, checked hourly): the beacons page lists it
    await c.startMinion('m0', { beacons: { load: [{ averages: { '1m': [0, 1000] } }, { interval: 3600 }] } });
    await c.startMinion('m1');
    base = `http://127.0.0.1:${port}`;
    await waitForApi(base);
  }, 90_000);
  afterAll(() => c?.stop());

  it('serves SaltGUI itself: app, static files, the app for browser page loads', async () => {
    const page = await fetch(`${base}/login`, {
      headers: { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toBe(INDEX);
    expect(await (await fetch(`${base}/app`)).text()).toBe(INDEX);
    const js = await fetch(`${base}/static/scripts/index.js`);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    const txt = await apiRequest('GET', '/static/minions.txt');
    expect(await txt.text()).toBe('m0\tweb\n');
    expect((await apiRequest('GET', '/static/salt-motd.txt')).status).toBe(404);
    expect((await fetch(`${base}/static/..%2f..%2fsecret.txt`)).status).toBe(404);
    expect((await fetch(`${base}/static/%2e%2e/%2e%2e/secret.txt`)).status).toBe(404);
    // API answers stay JSON for API clients (curl's */*, SaltGUI's application/json)
    const root = await fetch(`${base}/`, { headers: { Accept: '*/*' } });
    expect(((await root.json()) as Json).return).toBe('Welcome');
  });

  it('login: token, expire, non-empty perms, session cookie (text/plain JSON body, empty token)', async () => {
    const r = await apiRequest('POST', '/login', { eauth: 'file', password: 'guipw', username: 'gui' });
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      return: [{ token: string; expire: number; perms: unknown; eauth: string }];
    };
    const resp = body.return[0];
    expect(Object.keys(resp.perms as object).length).toBeGreaterThan(0);
    expect(resp.expire).toBeGreaterThan(Date.now() / 1000);
    expect(resp.token).toMatch(/^[0-9a-f]{40}$/);
    token = resp.token;
    cookie = (r.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toBe(`session_id=${token}`);
    const bad = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'X-Auth-Token': '' },
      body: JSON.stringify({ eauth: 'file', password: 'no', username: 'gui' }),
    });
    expect(bad.status).toBe(401);
  });

  it('minions page: key.list_all, minions.connected, grains.items, manage.versions', async () => {
    const keys = await ok<WheelAnswer<Record<string, string[]>>>('POST', '/', {
      client: 'wheel',
      fun: 'key.list_all',
    });
    const k = keys.return[0].data.return;
    expect(k.minions).toEqual(['m0', 'm1']);
    for (const f of ['minions_pre', 'minions_rejected', 'minions_denied'])
      expect(Array.isArray(k[f])).toBe(true);
    const connected = await ok<WheelAnswer<string[]>>('POST', '/', {
      client: 'wheel',
      fun: 'minions.connected',
    });
    expect([...connected.return[0].data.return].sort()).toEqual(['m0', 'm1']);
    const grains = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'local',
      fun: 'grains.items',
      tgt_type: 'glob',
      tgt: '*',
    });
    for (const id of ['m0', 'm1']) {
      const g = grains.return[0][id];
      expect(g?.id).toBe(id);
      expect(typeof g?.saltversion).toBe('string');
      expect(typeof g?.os).toBe('string');
    }
    const one = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'local',
      fun: 'grains.items',
      tgt_type: 'list',
      tgt: 'm1',
    });
    expect(Object.keys(one.return[0])).toEqual(['m1']);
    const versions = await ok<{ return: [Json] }>('POST', '/', { client: 'runner', fun: 'manage.versions' });
    expect(typeof versions.return[0].Master).toBe('string');
  });

  it('keys page: key.finger with match', async () => {
    const f = await ok<WheelAnswer<{ minions: Record<string, string> }>>('POST', '/', {
      client: 'wheel',
      fun: 'key.finger',
      match: '*',
    });
    expect(Object.keys(f.return[0].data.return.minions).sort()).toEqual(['m0', 'm1']);
    expect(f.return[0].data.return.minions.m0).toMatch(/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
    const one = await ok<WheelAnswer<{ minions: Record<string, string> }>>('POST', '/', {
      client: 'wheel',
      fun: 'key.finger',
      match: 'm1',
    });
    expect(Object.keys(one.return[0].data.return.minions)).toEqual(['m1']);
  });

  it('running a command (local full_return, local_async) while the event stream (cookie only) shows it; jobs pages', async () => {
    // SaltGUI's EventSource: same origin, so only the session cookie, no token header
    const ac = new AbortController();
    const events = await fetch(`${base}/events`, {
      headers: { Accept: 'text/event-stream', Cookie: cookie },
      signal: ac.signal,
    });
    expect(events.status).toBe(200);
    const reader = events.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
        if (done || !value) break;
        text += Buffer.from(value).toString();
      }
    })();
    await new Promise((r) => setTimeout(r, 200));

    const run = await ok<{ return: [Record<string, { ret: unknown; retcode: number; jid: string }>] }>(
      'POST',
      '/',
      {
        client: 'local',
        tgt: '*',
        tgt_type: 'glob',
        fun: 'test.echo',
        arg: ['hello'],
        full_return: true,
      },
    );
    expect(run.return[0].m0?.ret).toBe('hello');
    expect(run.return[0].m1?.retcode).toBe(0);
    expect(run.return[0].m0?.jid).toMatch(/^\d{20}$/);
    const jid = run.return[0].m0?.jid as string;
    const async = await ok<{ return: [{ jid: string; minions: string[] }] }>('POST', '/', {
      client: 'local_async',
      tgt: 'm0',
      tgt_type: 'list',
      fun: 'test.ping',
    });
    expect(async.return[0].minions).toEqual(['m0']);
    for (let i = 0; i < 50 && !text.includes(`salt/job/${async.return[0].jid}/ret/m0`); i++)
      await new Promise((r) => setTimeout(r, 100));
    ac.abort();
    await reading;
    // EventSource's onmessage: JSON.parse(data) -> {tag, data}
    const msgs = [...text.matchAll(/^data: (.*)$/gm)].map(
      (m) => JSON.parse(m[1] as string) as { tag: string; data: Json },
    );
    const ret = msgs.find((m) => m.tag === `salt/job/${jid}/ret/m0`);
    expect(ret?.data).toMatchObject({ id: 'm0', jid, fun: 'test.echo', return: 'hello', retcode: 0 });
    expect(msgs.some((m) => m.tag === `salt/job/${async.return[0].jid}/ret/m0`)).toBe(true);

    // jobs page: jobs.list_jobs (also with search_function), jobs.active, jobs.list_job
    const list = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'runner',
      fun: 'jobs.list_jobs',
    });
    const job = list.return[0][jid];
    expect(job).toMatchObject({ Function: 'test.echo', Target: '*', User: 'gui', Arguments: ['hello'] });
    expect(typeof job?.StartTime).toBe('string');
    const searched = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'runner',
      fun: 'jobs.list_jobs',
      search_function: 'test.echo',
    });
    expect(Object.values(searched.return[0]).every((j) => j.Function === 'test.echo')).toBe(true);
    expect(Object.keys(searched.return[0])).toContain(jid);
    const active = await ok<{ return: [Json] }>('POST', '/', { client: 'runner', fun: 'jobs.active' });
    expect(typeof active.return[0]).toBe('object');
    const detail = await ok<{ return: [Json] }>('POST', '/', { client: 'runner', fun: 'jobs.list_job', jid });
    const info = detail.return[0] as {
      Function: string;
      Minions: string[];
      Result: Record<string, { return: unknown }>;
      StartTime: string;
      Target: string;
      'Target-type': string;
      User: string;
    };
    expect(info.Function).toBe('test.echo');
    expect([...info.Minions].sort()).toEqual(['m0', 'm1']);
    expect(info.Result.m0?.return).toBe('hello');
    expect(info.Target).toBe('*');
    expect(info['Target-type']).toBe('glob');
    expect(info.User).toBe('gui');
  }, 60_000);

  it('grains, beacons, schedules and pillars pages: cache runners and the minion modules', async () => {
    // Grains page: cache.grains from the master's minion data cache
    const cached = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'runner',
      fun: 'cache.grains',
      tgt: '*',
    });
    expect(Object.keys(cached.return[0]).sort(), JSON.stringify(cached)).toEqual(['m0', 'm1']);
    expect(cached.return[0].m0?.id).toBe('m0');
    expect(typeof cached.return[0].m1?.saltversion).toBe('string');
    const pillars = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'runner',
      fun: 'cache.pillar',
      tgt: '*',
    });
    expect(pillars.return[0]).toEqual({ m0: {}, m1: {} });
    const local = (fun: string, extra: Json = {}) =>
      ok<{ return: [Record<string, unknown>] }>('POST', '/', {
        client: 'local',
        fun,
        tgt: '*',
        tgt_type: 'glob',
        ...extra,
      });
    const noYaml = { kwarg: { return_yaml: false } };
    // Beacons page: m0 runs the load beacon (its minion config), m1 none
    const list = await local('beacons.list', noYaml);
    expect(list.return[0]).toEqual({
      m0: { load: [{ averages: { '1m': [0, 1000] } }, { interval: 3600 }] },
      m1: {},
    });
    const yaml = await local('beacons.list');
    expect(yaml.return[0].m1).toBe('beacons: {}\n');
    expect(yaml.return[0].m0).toMatch(/^beacons:\n {2}load:\n {2}- averages:\n/);
    const available = await local('beacons.list_available', noYaml);
    for (const id of ['m0', 'm1']) expect(available.return[0][id]).toContain('load');
    // Schedules page: no scheduler, Salt's answer for an empty schedule
    expect((await local('schedule.list', noYaml)).return[0]).toEqual({ m0: {}, m1: {} });
    expect((await local('schedule.list')).return[0]).toEqual({ m0: 'schedule: {}\n', m1: 'schedule: {}\n' });
    // Pillars page: no pillar sources, Salt's answers for an empty pillar
    expect((await local('pillar.items')).return[0]).toEqual({ m0: {}, m1: {} });
    expect((await local('pillar.obfuscate')).return[0]).toEqual({ m0: {}, m1: {} });
    expect((await local('pillar.get', { arg: ['role', 'none'] })).return[0]).toEqual({
      m0: 'none',
      m1: 'none',
    });
    expect((await local('pillar.item', { arg: ['role'] })).return[0]).toEqual({
      m0: { role: '' },
      m1: { role: '' },
    });
  }, 60_000);

  it("the mine page's mine.valid, and a missing function as Salt answers it", async () => {
    // minions without mine_functions: Salt's None
    const mine = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'local',
      fun: 'mine.valid',
      tgt: '*',
      tgt_type: 'glob',
    });
    expect(mine.return[0]).toEqual({ m0: null, m1: null });
    // SaltGUI shows a missing function per minion as Salt's 200 answer
    const r = await ok<{ return: [Record<string, string>] }>('POST', '/', {
      client: 'local',
      fun: 'nosuchmod.nosuchfun',
      tgt: '*',
      tgt_type: 'glob',
    });
    expect(r.return[0]).toEqual({
      m0: "'nosuchmod.nosuchfun' is not available.",
      m1: "'nosuchmod.nosuchfun' is not available.",
    });
    const providers = await ok<{ return: [Record<string, Json>] }>('POST', '/', {
      client: 'local',
      fun: 'test.providers',
      tgt: 'm0',
      tgt_type: 'glob',
    });
    expect(providers.return[0].m0?.test).toBe('test');
  }, 60_000);

  it('options/stats pages and logout', async () => {
    const values = await ok<WheelAnswer<Json>>('POST', '/', { client: 'wheel', fun: 'config.values' });
    expect(typeof values.return[0].data.return).toBe('object');
    const stats = await apiRequest('GET', '/stats');
    expect(stats.status).toBe(200);
    expect(typeof (await stats.json())).toBe('object');
    const out = await apiRequest('POST', '/logout', {});
    expect(out.status).toBe(200);
    expect((await apiRequest('POST', '/', { client: 'wheel', fun: 'key.list_all' })).status).toBe(401);
    // after logout, SaltGUI's 401 handling POSTs /logout again: a 200 or 401 is fine
    expect([200, 401]).toContain((await apiRequest('POST', '/logout', {})).status);
  });
});
