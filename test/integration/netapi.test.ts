import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../kernel/process/ports.js';
import { Cluster } from '../../tools/local-cluster.js';
import { loginToken, waitForApi } from '../../tools/netapi-http.js';

describe('netapi: salt-api compatible REST API on a real master', () => {
  let port = 0;
  let c: Cluster;
  let base = '';
  let token = '';
  const auth = () => ({ 'X-Auth-Token': token, Accept: 'application/json' });
  const json = (body: unknown) => ({
    method: 'POST',
    headers: { ...auth(), 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    port = await freePort();
    c = new Cluster({
      master: {
        rest_cherrypy: { port, host: '127.0.0.1', disable_ssl: true, rate_limit: 0 },
        netapi_enable_clients: ['local', 'local_async', 'runner', 'wheel', 'local_batch', 'runner_async'],
        external_auth: {
          file: {
            '^filename': '__USERS__',
            saltdev: ['.*', '@runner', '@wheel', '@jobs'],
            limited: ['test.ping'],
          },
        },
      },
    });
    const users = join(c.root, 'users.txt');
    writeFileSync(users, 'saltdev:saltdev\nlimited:pw\n');
    await c.writeMasterConfig();
    // the file path is only known once the cluster root exists
    const { readFileSync } = await import('node:fs');
    const conf = join(c.confDir, 'master');
    writeFileSync(conf, readFileSync(conf, 'utf8').replace('__USERS__', users));
    const origWrite = c.writeMasterConfig.bind(c);
    c.writeMasterConfig = async () => undefined;
    await c.startMaster();
    c.writeMasterConfig = origWrite;
    await c.startMinion('m0');
    await c.startMinion('m1');
    base = `http://127.0.0.1:${port}`;
    await waitForApi(base);
  }, 90_000);
  afterAll(() => c?.stop());

  it('GET / lists the clients without a token', async () => {
    const r = await fetch(`${base}/`, { headers: { Accept: 'application/json' } });
    expect(r.status).toBe(200);
    // no cors_origin configured: no CORS headers (issue 27 item 15)
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
    expect(await r.text()).toBe(
      '{"return": "Welcome", "clients": ["local", "local_async", "local_batch", "local_subset", "runner", "runner_async", "ssh", "wheel", "wheel_async"]}',
    );
  });

  it('POST /login gives a token, a session cookie and the perms; a bad password is 401', async () => {
    const r = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'saltdev', eauth: 'file' }),
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as {
      return: [{ token: string; perms: string[]; user: string; eauth: string }];
    };
    token = body.return[0].token;
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect(r.headers.get('x-auth-token')).toBe(token);
    expect(r.headers.get('set-cookie')).toContain(`session_id=${token}`);
    expect(body.return[0]).toMatchObject({
      user: 'saltdev',
      eauth: 'file',
      perms: ['.*', '@jobs', '@runner', '@wheel'],
    });
    const form = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'username=saltdev&password=saltdev&eauth=file',
    });
    expect(form.status).toBe(200);
    const bad = await fetch(`${base}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'saltdev', password: 'wrong', eauth: 'file' }),
    });
    expect(bad.status).toBe(401);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('NETAPI_ERR_UNAUTHENTICATED');
  });

  it('POST / local test.ping reaches both minions (object and list lowstate, YAML too)', async () => {
    const r = await fetch(`${base}/`, json({ client: 'local', tgt: '*', fun: 'test.ping' }));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ return: [{ m0: true, m1: true }] });
    const l = await fetch(
      `${base}/`,
      json([{ client: 'local', tgt: '*', fun: 'cmd.run', arg: ['echo hi'] }]),
    );
    expect(await l.json()).toEqual({ return: [{ m0: 'hi', m1: 'hi' }] });
    const y = await fetch(`${base}/`, {
      method: 'POST',
      headers: { ...auth(), 'Content-Type': 'application/x-yaml' },
      body: '- client: local\n  tgt: m0\n  fun: test.arg\n  arg: [a, b]\n',
    });
    const yb = (await y.json()) as { return: [{ m0: { args: unknown[] } }] };
    expect(yb.return[0].m0.args).toEqual(['a', 'b']);
  });

  it('local_async gives a jid that GET /jobs/:jid and GET /jobs show', async () => {
    const r = await fetch(`${base}/`, json({ client: 'local_async', tgt: '*', fun: 'test.ping' }));
    const body = (await r.json()) as { return: [{ jid: string; minions: string[] }] };
    const { jid, minions } = body.return[0];
    expect(minions.sort()).toEqual(['m0', 'm1']);
    let job:
      | { info: [{ Function: string; Result: Record<string, unknown> }]; return: [Record<string, unknown>] }
      | undefined;
    for (let i = 0; i < 50; i++) {
      const j = await fetch(`${base}/jobs/${jid}`, { headers: auth() });
      expect(j.status).toBe(200);
      job = (await j.json()) as typeof job;
      if (job && Object.keys(job.return[0]).length === 2) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(job?.info[0].Function).toBe('test.ping');
    expect(job?.return[0]).toEqual({ m0: true, m1: true });
    const list = (await (await fetch(`${base}/jobs`, { headers: auth() })).json()) as {
      return: [Record<string, { User: string }>];
    };
    expect(list.return[0][jid]?.User).toBe('saltdev');
    // as Salt: the listing is each job's load alone, the detail names the targeted minions
    expect(list.return[0][jid]).not.toHaveProperty('Minions');
    expect(job?.info[0]).toHaveProperty('Minions', ['m0', 'm1']);
    const none = await fetch(
      `${base}/`,
      json({ client: 'local_async', tgt: 'nosuchminion', fun: 'test.ping' }),
    );
    expect(await none.json()).toEqual({ return: [{}] });
    expect((await fetch(`${base}/jobs/..%2F..%2Fetc`, { headers: auth() })).status).toBe(400);
  });

  it('runner and wheel clients', async () => {
    const r = await fetch(`${base}/`, json({ client: 'runner', fun: 'manage.up' }));
    expect(await r.json()).toEqual({ return: [['m0', 'm1']] });
    const w = await fetch(`${base}/`, json({ client: 'wheel', fun: 'key.list_all' }));
    const wb = (await w.json()) as {
      return: [{ tag: string; data: { return: { minions: string[] }; user: string } }];
    };
    expect(wb.return[0].tag).toMatch(/^salt\/wheel\//);
    expect(wb.return[0].data.return.minions).toEqual(['m0', 'm1']);
    expect(wb.return[0].data.user).toBe('saltdev');
  });

  it('GET /minions, /minions/:id, POST /minions (202), /keys, /keys/:id', async () => {
    const m = (await (await fetch(`${base}/minions`, { headers: auth() })).json()) as {
      return: [Record<string, { id: string }>];
    };
    expect(Object.keys(m.return[0]).sort()).toEqual(['m0', 'm1']);
    expect(m.return[0].m0?.id).toBe('m0');
    const one = (await (await fetch(`${base}/minions/m0`, { headers: auth() })).json()) as {
      return: [Record<string, unknown>];
    };
    expect(Object.keys(one.return[0])).toEqual(['m0']);
    const p = await fetch(`${base}/minions`, json({ tgt: 'm0', fun: 'test.ping' }));
    expect(p.status).toBe(202);
    const pb = (await p.json()) as { return: [{ jid: string }]; _links: { jobs: [{ href: string }] } };
    expect(pb._links.jobs[0].href).toBe(`/jobs/${pb.return[0].jid}`);
    const k = (await (await fetch(`${base}/keys`, { headers: auth() })).json()) as {
      return: { minions: string[]; local: string[] };
    };
    expect(k.return.minions).toEqual(['m0', 'm1']);
    const f = (await (await fetch(`${base}/keys/m0`, { headers: auth() })).json()) as {
      return: { minions: Record<string, string> };
    };
    expect(f.return.minions.m0).toMatch(/^([0-9a-f]{2}:){31}[0-9a-f]{2}$/);
  });

  it('GET /events streams job events filtered by tag prefix', async () => {
    const ac = new AbortController();
    const r = await fetch(`${base}/events?tag=salt/job/`, { headers: auth(), signal: ac.signal });
    expect(r.headers.get('content-type')).toContain('text/event-stream');
    const reader = r.body!.getReader();
    let text = '';
    const reading = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        text += Buffer.from(value).toString();
        // both, in either order: /new and the return come from different master threads
        if (/tag: salt\/job\/\d+\/ret\/m0/.test(text) && /tag: salt\/job\/\d+\/new\n/.test(text)) break;
      }
    })();
    await new Promise((res) => setTimeout(res, 300));
    await fetch(`${base}/`, json({ client: 'local', tgt: 'm0', fun: 'test.ping' }));
    await Promise.race([reading, new Promise((res) => setTimeout(res, 5000))]);
    ac.abort();
    expect(text.startsWith('retry: 400\n')).toBe(true);
    expect(text).toMatch(/tag: salt\/job\/\d+\/new\ndata: \{"data": \{/);
    expect(text).toMatch(/tag: salt\/job\/\d+\/ret\/m0/);
    expect(text).not.toContain('tag: salt/auth');
  });

  it('POST /hook fires an event; bad paths are refused', async () => {
    const r = await fetch(`${base}/hook/my/app`, json({ foo: 'bar' }));
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ success: true });
    expect((await fetch(`${base}/hook/a/..%2F..`, json({}))).status).toBe(400);
    expect(
      (
        await fetch(`${base}/hook/x`, {
          method: 'POST',
          body: '{}',
          headers: { 'Content-Type': 'application/json' },
        })
      ).status,
    ).toBe(401);
  });

  it('ACLs: a limited user may ping but not run cmd.run, runners or wheel', async () => {
    const t = await loginToken(base, 'limited', 'pw');
    const post = (body: unknown) =>
      fetch(`${base}/`, {
        method: 'POST',
        headers: { 'X-Auth-Token': t, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ client: 'local', tgt: 'm0', fun: 'test.ping' })).status).toBe(200);
    expect((await post({ client: 'local', tgt: 'm0', fun: 'cmd.run', arg: ['id'] })).status).toBe(403);
    expect((await post({ client: 'runner', fun: 'manage.up' })).status).toBe(403);
    expect((await post({ client: 'wheel', fun: 'key.list_all' })).status).toBe(403);
    expect((await fetch(`${base}/keys`, { headers: { 'X-Auth-Token': t } })).status).toBe(403);
  });

  it('bad input: clear JSON errors with the right status, the API keeps serving', async () => {
    const cases: [RequestInit, number, string][] = [
      [
        { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/json' }, body: '{"client": ' },
        400,
        'NETAPI_ERR_BAD_BODY',
      ],
      [
        { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/x-yaml' }, body: 'a: [1' },
        400,
        'NETAPI_ERR_BAD_BODY',
      ],
      [
        { method: 'POST', headers: { ...auth(), 'Content-Type': 'application/xml' }, body: '<a/>' },
        415,
        'NETAPI_ERR_MEDIA_TYPE',
      ],
      [json({ tgt: '*', fun: 'test.ping' }), 400, 'NETAPI_ERR_BAD_LOWSTATE'],
      [json({ client: 'bogus', tgt: '*', fun: 'test.ping' }), 400, 'NETAPI_ERR_BAD_LOWSTATE'],
      [json({ client: 'local_subset', tgt: '*', fun: 'test.ping' }), 400, 'NETAPI_ERR_CLIENT_DISABLED'],
      [json({ client: 'local', tgt: '*' }), 400, 'NETAPI_ERR_BAD_LOWSTATE'],
      [
        {
          method: 'POST',
          headers: { ...auth(), 'Content-Type': 'application/json' },
          body: JSON.stringify({ x: 'y'.repeat(2_000_000) }),
        },
        413,
        'NETAPI_ERR_BODY_TOO_LARGE',
      ],
      [
        {
          method: 'POST',
          headers: { 'X-Auth-Token': 'f'.repeat(40), 'Content-Type': 'application/json' },
          body: '{}',
        },
        401,
        'NETAPI_ERR_UNAUTHENTICATED',
      ],
      [
        {
          method: 'POST',
          headers: { 'X-Auth-Token': '../../etc/passwd', 'Content-Type': 'application/json' },
          body: '{}',
        },
        401,
        'NETAPI_ERR_UNAUTHENTICATED',
      ],
    ];
    for (const [init, status, code] of cases) {
      const r = await fetch(`${base}/`, init);
      expect(r.status, code).toBe(status);
      const b = (await r.json()) as { status: number; return: string; error: { code: string } };
      expect(b.error.code).toBe(code);
      expect(b.status).toBe(status);
    }
    const disabled = await fetch(`${base}/`, json({ client: 'wheel_async', fun: 'key.list_all' }));
    expect(((await disabled.json()) as { return: string }).return).toContain('netapi_enable_clients');
    const ssh = await fetch(`${base}/`, json({ client: 'ssh', tgt: '*', fun: 'test.ping' }));
    expect(ssh.status).toBe(400);
    expect((await fetch(`${base}/`, { headers: auth() })).status).toBe(200);
  });

  it('POST /run takes credentials in the body', async () => {
    const r = await fetch(`${base}/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client: 'local',
        tgt: '*',
        fun: 'test.ping',
        username: 'saltdev',
        password: 'saltdev',
        eauth: 'file',
      }),
    });
    expect(await r.json()).toEqual({ return: [{ m0: true, m1: true }] });
    const bad = await fetch(`${base}/run`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        client: 'local',
        tgt: '*',
        fun: 'test.ping',
        username: 'saltdev',
        password: 'x',
        eauth: 'file',
      }),
    });
    expect(bad.status).toBe(401);
  });

  it('logout revokes the token', async () => {
    const r = await fetch(`${base}/logout`, { method: 'POST', headers: auth() });
    expect(await r.json()).toEqual({ return: 'Your token has been cleared' });
    expect((await fetch(`${base}/minions`, { headers: auth() })).status).toBe(401);
  });
});
