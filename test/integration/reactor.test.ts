import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventFirer, EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { encodeEventBody } from '../../kernel/serial/index.js';
import { Cluster } from '../../tools/local-cluster.js';

/** Starts the master (with its reactor) and a minion m1, and records the master bus's `salt/` events. */
function reactorCluster(c: Cluster) {
  const seen: SaltEvent[] = [];
  let events: EventListener | undefined;
  let firer: EventFirer | undefined;
  return {
    seen,
    fire: (tag: string, data: Record<string, unknown>) => firer?.fire(tag, data),
    fireRaw: (body: Buffer) => firer?.fireRaw(body),
    async start(): Promise<void> {
      await c.startMaster();
      await c.master!.waitFor('reactor started');
      await c.startMinion('m1');
      const addrs = masterEventAddresses(join(c.root, 'var/run/salt/master'));
      const listener = new EventListener(addrs, ['salt/']);
      events = listener;
      await listener.ready();
      void (async () => {
        for await (const ev of listener) seen.push(ev);
      })();
      firer = new EventFirer(addrs);
    },
    async stop(): Promise<void> {
      events?.close();
      await firer?.close();
      await c.stop();
    },
    async waitFor(pred: (e: SaltEvent) => boolean, ms = 15_000): Promise<SaltEvent | undefined> {
      for (let t = 0; t < ms; t += 25) {
        const ev = seen.find(pred);
        if (ev) return ev;
        await new Promise((r) => setTimeout(r, 25));
      }
      return undefined;
    },
  };
}

describe('the reactor on a real master and minion', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  const bus = reactorCluster(c);
  const { seen, waitFor } = bus;
  const dir = join(c.root, 'srv', 'reactor');

  beforeAll(async () => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'echo.sls'),
      `{# a minion's event.send: data is the whole load, the user's data under data['data'] #}
echo_back:
  local.test.echo:
    - tgt: {{ data['id'] }}
    - args:
      - text: {{ data['data']['foo'] | default('none') }}
`,
    );
    writeFileSync(
      join(dir, 'master-side.sls'),
      `run_it:
  runner.test.arg:
    - args:
      - seen: {{ tag }}
list_keys:
  wheel.key.list_all: []
`,
    );
    writeFileSync(join(dir, 'broken.sls'), 'oops:\n  local.test.ping:\n    - tgt: {{ data.nope }}\n');
    writeFileSync(join(dir, 'unknown.sls'), 'nope:\n  runner.nosuch.fn: []\n');
    writeFileSync(join(dir, 'on-return.sls'), 'again:\n  local.test.ping:\n    - tgt: {{ data.id }}\n');
    Object.assign(master, {
      file_roots: { base: [join(c.root, 'srv')] },
      reactor: [
        { 'my/tag': [join(dir, 'echo.sls')] },
        { 'my/master': ['salt://reactor/master-side.sls'] },
        { 'my/bad': [join(dir, 'broken.sls'), join(dir, 'missing.sls'), join(dir, 'unknown.sls')] },
        // without loop protection this would react to its own job's returns forever
        { 'salt/job/*/ret/*': [join(dir, 'on-return.sls')] },
      ],
    });
    await bus.start();
  }, 60_000);

  afterAll(() => bus.stop());

  const trace = (id: string, suffix: string) => (e: SaltEvent) => e.tag === `salt/reactor/${id}/${suffix}`;

  it('event.send from a minion → a local reaction whose job runs on the minion', async () => {
    const r = await c.salt(['m1', 'event.send', 'my/tag', 'foo=bar']);
    expect(r.code).toBe(0);
    const match = await waitFor((e) => /^salt\/reactor\/\d+\/match$/.test(e.tag) && e.data.tag === 'my/tag');
    expect(match?.data).toMatchObject({ globs: ['my/tag'], files: [join(dir, 'echo.sls')] });
    const id = match!.tag.split('/')[2] as string;
    const render = await waitFor(trace(id, 'render'));
    expect(render?.data.reactions).toEqual([
      expect.objectContaining({
        id: 'echo_back',
        kind: 'local',
        fun: 'test.echo',
        tgt: 'm1',
        kwarg: { text: 'bar' },
      }),
    ]);
    const start = await waitFor(trace(id, 'start'));
    expect(start?.data).toMatchObject({ reaction: 'echo_back', kind: 'local', minions: ['m1'] });
    const jid = String(start?.data.jid);
    const ret = await waitFor((e) => e.tag === `salt/job/${jid}/ret/m1`);
    expect(ret?.data).toMatchObject({ return: 'bar', success: true });
    const created = await waitFor((e) => e.tag === `salt/job/${jid}/new`);
    expect(created?.data.user).toBe('Reactor');
  });

  it('runner and wheel reactions (salt:// file), started as user Reactor', async () => {
    bus.fire('my/master', { from: 'test' });
    const start = await waitFor((e) => /\/start$/.test(e.tag) && e.data.reaction === 'run_it');
    const runJid = String(start?.data.jid);
    const runRet = await waitFor((e) => e.tag === `salt/run/${runJid}/ret`);
    expect(runRet?.data).toMatchObject({ user: 'Reactor', return: { kwargs: { seen: 'my/master' } } });
    const wheel = await waitFor((e) => /\/start$/.test(e.tag) && e.data.reaction === 'list_keys');
    expect(wheel?.data).toMatchObject({ kind: 'wheel', fun: 'key.list_all', success: true });
    const wheelRet = await waitFor((e) => e.tag === `salt/wheel/${String(wheel?.data.jid)}/ret`);
    expect(wheelRet?.data).toMatchObject({ user: 'Reactor', return: { minions: ['m1'] } });
  });

  it('a render error, a missing file and an unknown function: error traces and warnings, nothing runs', async () => {
    bus.fire('my/bad', { id: 'm1' });
    const match = await waitFor((e) => /\/match$/.test(e.tag) && e.data.tag === 'my/bad');
    const id = match!.tag.split('/')[2] as string;
    await waitFor(() => seen.filter(trace(id, 'error')).length >= 3);
    const errors = seen.filter(trace(id, 'error')).map((e) => e.data);
    expect(errors).toEqual([
      expect.objectContaining({ stage: 'render', code: 'SALT_ERR_REACTOR_RENDER', line: 3 }),
      expect.objectContaining({ stage: 'file', code: 'SALT_ERR_REACTOR_FILE' }),
      expect.objectContaining({ stage: 'reaction', code: 'SALT_ERR_REACTOR_REACTION', reaction: 'nope' }),
    ]);
    expect(String(errors[2]?.message)).toContain("'nosuch.fn' is not available");
    expect(seen.filter(trace(id, 'start'))).toEqual([]);
    await c.master!.waitFor('reactor: reaction nope');
    expect(c.master!.out).toMatch(/WARN.*reactor: .*broken\.sls, line 3/);
  });

  it('data that is not a map is reported and the master keeps serving', async () => {
    // a list as the event's data, as a raw frame (the firer would stamp it into a map)
    bus.fireRaw(encodeEventBody('my/tag', ['a', 'list'] as unknown as Record<string, unknown>));
    const err = await waitFor((e) => /\/error$/.test(e.tag) && e.data.stage === 'data');
    expect(err?.data).toMatchObject({ code: 'SALT_ERR_REACTOR_DATA', tag: 'my/tag' });
    const r = await c.saltJson(['m1', 'test.ping']);
    expect(r.data).toEqual({ m1: true });
  });

  it('loop protection: the reactor does not react to the returns of its own jobs', async () => {
    // the test.ping above returned (salt/job/<jid>/ret/m1): the reactor ran on-return.sls once
    const starts = () => seen.filter((e) => /\/start$/.test(e.tag) && e.data.reaction === 'again');
    await waitFor(() => starts().length >= 1);
    await new Promise((r) => setTimeout(r, 3000));
    // each of the reactor's own jobs returned too, and none of those returns was reacted to;
    // only the returns of jobs it did not start (the earlier tests' CLI and reactor jobs) count
    const own = new Set(starts().map((e) => String(e.data.jid)));
    const reactedTo = seen.filter(
      (e) => /\/match$/.test(e.tag) && own.has(String(e.data.tag).split('/')[2] ?? ''),
    );
    expect(reactedTo).toEqual([]);
    for (const jid of own)
      expect(await waitFor((e) => e.tag === `salt/job/${jid}/ret/m1`, 5000)).toBeDefined();
    expect(starts().length).toBeLessThan(6);
  });

  it('salt-run reactor.list and the reactor.test dry run', async () => {
    const list = await c.saltRun(['--out', 'json', 'reactor.list']);
    expect(JSON.parse(list.stdout)).toEqual(master.reactor);
    const dry = await c.saltRun([
      '--out',
      'json',
      'reactor.test',
      'my/tag',
      '{"id": "m1", "data": {"foo": "dry"}}',
    ]);
    const out = JSON.parse(dry.stdout) as Record<string, unknown>;
    expect(out).toMatchObject({
      matched: true,
      globs: ['my/tag'],
      reactions: [expect.objectContaining({ fun: 'test.echo', tgt: 'm1', kwarg: { text: 'dry' } })],
      errors: [],
    });
    const bad = await c.saltRun(['--out', 'json', 'reactor.test', 'my/bad', '{"id": "m1"}']);
    expect(bad.code).toBe(1);
    const errors = (JSON.parse(bad.stdout) as { errors: Array<{ stage: string }> }).errors;
    expect(errors.map((e) => e.stage)).toEqual(['render', 'file', 'reaction']);
  });
});

describe('TypeScript reactions from master.config.mjs', () => {
  const c = new Cluster();
  const bus = reactorCluster(c);
  const { waitFor } = bus;

  beforeAll(async () => {
    await c.writeMasterConfig();
    // the code config takes the YAML options the cluster wrote (one `key: <json>` a line)
    writeFileSync(
      join(c.confDir, 'master.config.mjs'),
      `import { readFileSync } from 'node:fs';
const base = Object.fromEntries(
  readFileSync(new URL('./master', import.meta.url), 'utf8').split('\\n').filter(Boolean)
    .map((l) => [l.slice(0, l.indexOf(':')), JSON.parse(l.slice(l.indexOf(':') + 1))]),
);
export default {
  ...base,
  reactions: [
    {
      name: 'ts-echo',
      tags: ['ts/*'],
      react: (ev) => ev.data.skip ? undefined : { kind: 'local', fun: 'test.echo', tgt: ev.data.target, arg: [ev.tag] },
    },
    { name: 'ts-broken', tags: 'ts/boom', react: () => { throw new Error('kaboom'); } },
  ],
};
`,
    );
    await bus.start();
  }, 60_000);

  afterAll(() => bus.stop());

  it('a defineReaction value starts a job; a throwing one is reported', async () => {
    bus.fire('ts/go', { target: 'm1' });
    const start = await waitFor((e) => /\/start$/.test(e.tag) && e.data.reaction === 'ts-echo[0]');
    expect(start?.data).toMatchObject({ source: 'ts:ts-echo', kind: 'local', fun: 'test.echo' });
    const ret = await waitFor((e) => e.tag === `salt/job/${String(start?.data.jid)}/ret/m1`);
    expect(ret?.data.return).toBe('ts/go');
    bus.fire('ts/boom', { skip: true });
    const err = await waitFor((e) => /\/error$/.test(e.tag) && e.data.file === 'ts:ts-broken');
    expect(err?.data.message).toContain('reaction ts-broken threw: kaboom');
    const list = await c.saltRun(['--out', 'json', 'reactor.list']);
    expect(JSON.parse(list.stdout)).toEqual([{ 'ts/*': ['ts:ts-echo'] }, { 'ts/boom': ['ts:ts-broken'] }]);
    const dry = await c.saltRun(['--out', 'json', 'reactor.test', 'ts/dry', '{"target": "m1"}']);
    expect(JSON.parse(dry.stdout)).toMatchObject({
      matched: true,
      reactions: [expect.objectContaining({ fun: 'test.echo', tgt: 'm1', arg: ['ts/dry'] })],
    });
  });
});
