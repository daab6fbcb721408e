import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineReaction, type NamedReaction } from './define.js';
import { SALT_ERR_REACTOR_REACTION } from './errors.js';
import { LoopGuard } from './loop-guard.js';
import { type Executor, Reactor, type ReactorOptions } from './reactor.js';

const dir = mkdtempSync(join(tmpdir(), 'reactor-unit-'));
const roots = join(dir, 'srv');
mkdirSync(join(roots, 'reactor'), { recursive: true });
writeFileSync(
  join(dir, 'ping.sls'),
  `ping_it:
  local.test.ping:
    - tgt: {{ data['id'] }}
`,
);
writeFileSync(
  join(roots, 'reactor', 'keys.sls'),
  `{% if data.act == 'pend' %}
accept:
  wheel.key.accept:
    - args:
      - match: {{ data.id }}
{% endif %}
`,
);
writeFileSync(join(dir, 'broken.sls'), 'x:\n  local.test.ping:\n    - tgt: {{ data.nope }}\n');
writeFileSync(join(dir, 'badyaml.sls'), 'x: [unclosed\n');
writeFileSync(join(dir, 'unknown.sls'), 'x:\n  runner.nosuch.fn: []\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function setup(o: Partial<ReactorOptions> = {}) {
  const fired: Array<{ tag: string; data: Record<string, unknown> }> = [];
  const ran: NamedReaction[] = [];
  const warnings: string[] = [];
  let n = 0;
  const executor: Executor = {
    async run(r) {
      if (r.fun === 'nosuch.fn')
        throw new SALT_ERR_REACTOR_REACTION(r.id, "runner function 'nosuch.fn' is not available.");
      ran.push(r);
      return { jid: `2024010100000000000${n++}`, minions: ['m1'] };
    },
  };
  const reactor = new Reactor({
    entries: [
      { 'test/ping/*': './ping.sls' },
      { 'salt/auth': ['salt://reactor/keys.sls'] },
      { 'test/broken': ['broken.sls', 'missing.sls', 'badyaml.sls', 'ping.sls'] },
      { 'test/unknown': 'unknown.sls' },
      { '*': [] },
    ],
    files: { configDir: dir, baseRoots: [join(dir, 'nowhere'), roots] },
    fire: (tag, data) => fired.push({ tag, data }),
    log: { debug: () => undefined, info: () => undefined, warn: (_o, m) => warnings.push(String(m)) },
    guard: new LoopGuard(),
    executor,
    ...o,
  });
  return { reactor, fired, ran, warnings };
}

describe('Reactor', () => {
  it('matches a glob, renders the file with tag and data, starts the job and traces each step', async () => {
    const { reactor, fired, ran } = setup();
    const out = await reactor.handle('test/ping/1', { id: 'm1' });
    expect(ran).toEqual([
      expect.objectContaining({ kind: 'local', fun: 'test.ping', tgt: 'm1', id: 'ping_it' }),
    ]);
    expect(out?.errors).toEqual([]);
    const id = out?.id;
    expect(fired.map((f) => f.tag)).toEqual([
      `salt/reactor/${id}/match`,
      `salt/reactor/${id}/render`,
      `salt/reactor/${id}/start`,
    ]);
    expect(fired[0]?.data).toMatchObject({
      tag: 'test/ping/1',
      globs: ['test/ping/*'],
      files: ['./ping.sls'],
    });
    expect(fired[2]?.data).toMatchObject({
      reaction: 'ping_it',
      kind: 'local',
      fun: 'test.ping',
      jid: '20240101000000000000',
    });
  });

  it('salt:// files come from file_roots base; a template may render nothing', async () => {
    const { reactor, ran } = setup();
    await reactor.handle('salt/auth', { id: 'm9', act: 'pend' });
    await reactor.handle('salt/auth', { id: 'm9', act: 'accept' });
    expect(ran).toEqual([
      expect.objectContaining({ kind: 'wheel', fun: 'key.accept', kwarg: { match: 'm9' } }),
    ]);
  });

  it('a missing file, a render error and bad YAML are each reported; the good file still runs', async () => {
    const { reactor, fired, ran, warnings } = setup();
    const out = await reactor.handle('test/broken', { id: 'm1' });
    expect(ran).toHaveLength(1);
    expect(out?.errors.map((e) => [e.stage, e.code])).toEqual([
      ['render', 'SALT_ERR_REACTOR_RENDER'],
      ['file', 'SALT_ERR_REACTOR_FILE'],
      ['render', 'SALT_ERR_REACTOR_RENDER'],
    ]);
    expect(out?.errors[0]).toMatchObject({ line: 3, file: join(dir, 'broken.sls') });
    expect(out?.errors[0]?.message).toContain("has no attribute 'nope'");
    expect(out?.errors[1]?.message).toContain('missing.sls');
    expect(out?.errors[2]?.message).toMatch(/not valid YAML/);
    expect(fired.filter((f) => f.tag.endsWith('/error'))).toHaveLength(3);
    expect(warnings).toHaveLength(3);
  });

  it('an unknown function is an error trace; data that is not a map runs nothing', async () => {
    const { reactor, ran } = setup();
    const unknown = await reactor.handle('test/unknown', {});
    expect(unknown?.errors[0]).toMatchObject({ stage: 'reaction', code: 'SALT_ERR_REACTOR_REACTION' });
    const bad = await reactor.handle('test/ping/1', ['not', 'a', 'map']);
    expect(bad?.errors[0]).toMatchObject({ stage: 'data', code: 'SALT_ERR_REACTOR_DATA' });
    expect(bad?.errors[0]?.message).toContain('a list');
    expect(ran).toEqual([]);
  });

  it('loop protection: its own traces, user Reactor and its own jobs are not reacted to', async () => {
    const { reactor, ran } = setup({ entries: [{ '*': 'ping.sls' }] });
    const out = await reactor.handle('anything', { id: 'm1' });
    const jid = out?.started[0]?.jid as string;
    expect(await reactor.handle(`salt/reactor/${out?.id}/start`, { id: 'm1' })).toBeUndefined();
    expect(await reactor.handle(`salt/job/${jid}/ret/m1`, { id: 'm1' })).toBeUndefined();
    expect(await reactor.handle(jid, { minions: ['m1'] })).toBeUndefined();
    expect(
      await reactor.handle('salt/job/20990101000000000000/new', { id: 'm1', user: 'Reactor' }),
    ).toBeUndefined();
    expect(ran).toHaveLength(1);
    expect(await reactor.handle('salt/job/20990101000000000000/ret/m1', { id: 'm1' })).toBeDefined();
  });

  it('the circuit breaker pauses a glob that matches a storm of events', async () => {
    let now = 0;
    const { reactor, ran, fired } = setup({
      entries: [{ 'storm/*': 'ping.sls' }],
      guard: new LoopGuard({ burst: 3, pauseMs: 10_000, now: () => now }),
    });
    for (let i = 0; i < 6; i++) await reactor.handle('storm/x', { id: 'm1' });
    expect(ran).toHaveLength(3);
    expect(fired.filter((f) => f.tag.endsWith('/error'))).toHaveLength(1);
    expect(fired.find((f) => f.tag.endsWith('/error'))?.data.message).toMatch(/paused/);
    now = 20_000;
    await reactor.handle('storm/x', { id: 'm1' });
    expect(ran).toHaveLength(4);
  });

  it('TypeScript reactions: matched by their tags, results checked, a throw reported', async () => {
    const { reactor, ran } = setup({
      entries: [],
      reactions: [
        defineReaction({
          name: 'ts-ping',
          tags: ['ts/*'],
          react: (ev) => [
            { kind: 'local', fun: 'test.ping', tgt: String(ev.data.id) },
            { kind: 'runner', fun: 'test.arg', arg: [ev.tag] },
          ],
        }),
        defineReaction({ name: 'nothing', tags: 'ts/*', react: () => undefined }),
        defineReaction({
          name: 'thrower',
          tags: 'ts/boom',
          react: () => {
            throw new Error('kaboom');
          },
        }),
      ],
    });
    await reactor.handle('ts/go', { id: 'm2' });
    expect(ran.map((r) => [r.kind, r.fun, r.source, r.id])).toEqual([
      ['local', 'test.ping', 'ts:ts-ping', 'ts-ping[0]'],
      ['runner', 'test.arg', 'ts:ts-ping', 'ts-ping[1]'],
    ]);
    const out = await reactor.handle('ts/boom', { id: 'm2' });
    expect(out?.errors.find((e) => e.file === 'ts:thrower')?.message).toMatch(
      /reaction thrower threw: kaboom/,
    );
  });

  it('without an executor it is a dry run: it renders and reports, and starts nothing', async () => {
    const { reactor, fired } = setup({ executor: undefined, fire: undefined });
    const out = await reactor.handle('test/ping/9', { id: 'web1' });
    expect(out?.reactions).toEqual([expect.objectContaining({ fun: 'test.ping', tgt: 'web1' })]);
    expect(out?.started).toEqual([]);
    expect(fired).toEqual([]);
  });
});
