/**
 * The runtime's own behaviour beyond the recorded Salt runs (conformance.test.ts): progress
 * events, chunks left unchanged, parallel states really running side by side, the run's
 * failhard, abort, global arguments over real files and commands, retry timing, reload_pillar
 * and mod_init.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { float64, packIpc } from '../../../kernel/util.js';
import type { LowChunk } from '../types.js';
import { TSALTT_MODULE } from './custom-module.test-d.js';
import { harness } from './harness.test-d.js';
import { runChunks } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-runtime-'));
const statesDir = join(dir, 'states');
mkdirSync(statesDir);
writeFileSync(join(statesDir, 'tsaltt.js'), TSALTT_MODULE);
writeFileSync(
  join(statesDir, 'tsalti.js'),
  `globalThis.tsaltInits ??= 0;
export default {
  name: 'tsalti',
  functions: {
    mod_init: { varkw: true, run: () => { globalThis.tsaltInits += 1; return true; } },
    ok: { varkw: true, run: (_c, _a, e) => ({ name: e.kwargs.name, changes: {}, result: true, comment: 'ok' }) },
  },
};
`,
);
writeFileSync(
  join(statesDir, 'tsaltf.js'),
  `export default {
  name: 'tsaltf',
  functions: {
    kinds: { varkw: true, run: (_c, _a, e) => ({ name: e.kwargs.name, changes: {}, result: true,
      comment: [e.kwargs.x, e.kwargs.ctx.y].map((v) => v.constructor.name + ':' + Number(v)).join(' ') }) },
  },
};
`,
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let order = 10000;
function chunk(id: string, fun: string, extra: Record<string, unknown> = {}): LowChunk {
  const [state = 'test', f = 'nop'] = fun.split('.');
  order += 1;
  return { state, name: id, __sls__: 'unit', __env__: 'base', __id__: id, order, fun: f, ...extra };
}

describe('runChunks', () => {
  // both recorded with salt-call --local state.apply on Salt 3006.18
  it("fails a chunk that lacks an argument without a default, as Salt's verify_data does", async () => {
    const ret = await runChunks(
      [chunk('host-missing', 'host.present', { name: 'myhost.example' })],
      harness({ test: true }),
    );
    expect(ret['host_|-host-missing_|-myhost.example_|-present']).toEqual({
      result: false,
      name: 'myhost.example',
      changes: {},
      comment: 'Missing parameter ip for state host.present\n',
      __run_num__: 0,
    });
  });

  it("ends the run on keywords a state function cannot take, with Salt's format_call message", async () => {
    const one = chunk('t', 'file.touch', { name: join(dir, 'touched'), bogus: 1 });
    await expect(runChunks([one], harness({ test: true }))).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: "'bogus' is an invalid keyword argument for 'file.touch'",
      details: { kind: 'type', fun: 'file.touch' },
    });
    const three = chunk('t', 'file.touch', { name: join(dir, 'touched'), bogus: 1, other: 'x', third: 'y' });
    await expect(runChunks([chunk('first', 'test.nop'), three], harness({ test: true }))).rejects.toThrow(
      "'bogus', 'other' and 'third' are invalid keyword arguments for 'file.touch'",
    );
    expect(existsSync(join(dir, 'touched'))).toBe(false);
  });

  it('hands a state function an integral float (YAML 1.0) as a float, nested ones too', async () => {
    const rc = harness({ stateDirs: [statesDir] });
    const ret = await runChunks([chunk('f', 'tsaltf.kinds', { x: float64(1), ctx: { y: float64(2) } })], rc);
    expect(ret['tsaltf_|-f_|-f_|-kinds']?.comment).toBe('SaltFloat:1 SaltFloat:2');
  });

  it('fires progress after each state, in run order, and leaves the chunks it was given alone', async () => {
    const rc = harness();
    const chunks = [
      chunk('a', 'test.succeed_with_changes'),
      chunk('b', 'test.succeed_without_changes', { require: [{ test: 'c' }] }),
      chunk('c', 'test.nop'),
    ];
    const before = structuredClone(chunks);
    const ret = await runChunks(chunks, rc);
    expect(chunks).toEqual(before);
    expect(rc.events.map(([tag, r]) => [tag, r.__run_num__])).toEqual([
      ['test_|-a_|-a_|-succeed_with_changes', 0],
      ['test_|-c_|-c_|-nop', 1],
      ['test_|-b_|-b_|-succeed_without_changes', 2],
    ]);
    expect(Object.keys(ret)).toEqual(rc.events.map(([tag]) => tag));
  });

  it('runs parallel states side by side and waits for them where a requisite needs them', async () => {
    const rc = harness({ stateDirs: [statesDir] });
    const started = performance.now();
    const ret = await runChunks(
      [
        chunk('s1', 'tsaltt.sleepy', { ms: 400, parallel: true }),
        chunk('s2', 'tsaltt.sleepy', { ms: 400, parallel: true }),
        chunk('after', 'test.succeed_without_changes', { require: ['s1', 's2'] }),
      ],
      rc,
    );
    const took = performance.now() - started;
    expect(took).toBeLessThan(750);
    expect(ret['tsaltt_|-s1_|-s1_|-sleepy']).toMatchObject({
      result: true,
      comment: 'slept',
      __parallel__: true,
    });
    expect(ret['tsaltt_|-s1_|-s1_|-sleepy']?.duration).toBeGreaterThanOrEqual(390);
    expect(ret['test_|-after_|-after_|-succeed_without_changes']).toMatchObject({
      result: true,
      __run_num__: 2,
    });
  });

  it('a state with requisites waits only for the parallel states it names', async () => {
    const rc = harness({ stateDirs: [statesDir] });
    const started = performance.now();
    const seen: [string, number][] = [];
    rc.progress = (tag) => seen.push([tag, performance.now() - started]);
    await runChunks(
      [
        chunk('slow', 'tsaltt.sleepy', { ms: 600, parallel: true }),
        chunk('quick', 'tsaltt.sleepy', { ms: 10, parallel: true }),
        chunk('needs_quick', 'test.nop', { require: ['quick'] }),
      ],
      rc,
    );
    const at = Object.fromEntries(seen);
    expect(at['test_|-needs_quick_|-needs_quick_|-nop']).toBeLessThan(400);
  });

  it("stops at a failure under the run's failhard, but not under test", async () => {
    const chunks = [
      chunk('one', 'test.fail_without_changes'),
      chunk('two', 'test.nop'),
      chunk('soft', 'test.fail_without_changes', { failhard: false }),
    ];
    expect(Object.keys(await runChunks(chunks, harness({ failhard: true })))).toEqual([
      'test_|-one_|-one_|-fail_without_changes',
    ]);
    expect(Object.keys(await runChunks(chunks, harness({ failhard: true, test: true })))).toHaveLength(3);
    expect(Object.keys(await runChunks(chunks.slice(1), harness({ failhard: true })))).toHaveLength(2);
  });

  it('stops when the job is aborted', async () => {
    const abort = new AbortController();
    const rc = harness();
    Object.defineProperty(rc.exec, 'signal', { value: abort.signal });
    rc.progress = () => abort.abort();
    const ret = await runChunks([chunk('a', 'test.nop'), chunk('b', 'test.nop')], rc);
    expect(Object.keys(ret)).toEqual(['test_|-a_|-a_|-nop']);
  });

  it('runs unless/onlyif through the real cmd.retcode with cwd, and creates over real files', async () => {
    const work = mkdtempSync(join(dir, 'work-'));
    writeFileSync(join(work, 'marker'), '');
    const ret = await runChunks(
      [
        chunk('u', 'test.succeed_with_changes', { cwd: work, unless: 'test -f marker' }),
        chunk('o', 'test.succeed_with_changes', { cwd: work, onlyif: ['test -f marker', 'test -f nope'] }),
        chunk('cr', 'test.succeed_with_changes', { creates: [join(work, 'marker')] }),
        chunk('cr2', 'test.succeed_with_changes', { creates: join(work, 'nope') }),
        chunk('sh', 'test.succeed_with_changes', { onlyif: 'exit 0', unless: '[ -d / ] && false' }),
      ],
      harness(),
    );
    const by = (id: string) => Object.values(ret).find((r) => r.__id__ === id);
    expect(by('u')).toMatchObject({ result: true, comment: 'unless condition is true', skip_watch: true });
    expect(by('o')).toMatchObject({ result: true, comment: 'onlyif condition is false', skip_watch: true });
    expect(by('cr')).toMatchObject({ comment: 'All files in creates exist', changes: {} });
    expect(by('cr2')).toMatchObject({ comment: 'Success!', result: true });
    expect(by('sh')).toMatchObject({ comment: 'Success!', result: true });
  });

  it('waits `interval` seconds between retries and adds them to the duration', async () => {
    const started = performance.now();
    const ret = await runChunks(
      [chunk('r', 'test.fail_without_changes', { retry: { attempts: 2, interval: 1 } })],
      harness(),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    const r = ret['test_|-r_|-r_|-fail_without_changes'];
    expect(r?.duration).toBeGreaterThanOrEqual(1000);
    expect(r?.__run_num__).toBe(1);
    expect(r?.comment).toBe(
      'Attempt 1: Returned a result of "False", with the following comment: "Failure!"\nFailure!',
    );
  });

  it('reads the pillar anew after reload_pillar', async () => {
    const rc = harness({ pillar: { k: 1 }, opts: { pillar: { k: 'now a string' } } });
    const ret = await runChunks(
      [
        chunk('before', 'test.check_pillar', { string: 'k' }),
        chunk('reload', 'test.nop', { reload_pillar: true }),
        chunk('after', 'test.check_pillar', { string: 'k' }),
      ],
      rc,
    );
    expect(ret['test_|-before_|-before_|-check_pillar']).toMatchObject({
      result: false,
      comment: `Pillar key "k" is not (<class 'str'>,).\n`,
    });
    expect(ret['test_|-after_|-after_|-check_pillar']).toMatchObject({ result: true, comment: '' });
  });

  it("runs a module's mod_init once per run", async () => {
    const g = globalThis as { tsaltInits?: number };
    const rc = harness({ stateDirs: [statesDir] });
    await runChunks([chunk('i1', 'tsalti.ok'), chunk('i2', 'tsalti.ok')], rc);
    expect(g.tsaltInits).toBe(1);
  });

  it('gives up on a prereq loop as Salt does (it dies with RecursionError) instead of running forever', async () => {
    const loop = [
      chunk('pa', 'test.succeed_with_changes', { prereq: ['pb'] }),
      chunk('pb', 'test.succeed_with_changes', { prereq: ['pa'] }),
    ];
    await expect(runChunks(loop, harness())).rejects.toThrow(/maximum recursion depth exceeded/);
  });

  it('answers the states the state_runs_disabled grain turns off first, and runs the rest', async () => {
    const rc = harness({ grains: { state_runs_disabled: ['test.succeed_*'] } });
    const ret = await runChunks([chunk('on', 'test.nop'), chunk('off', 'test.succeed_with_changes')], rc);
    expect(Object.keys(ret)).toEqual(['test_|-off_|-off_|-succeed_with_changes', 'test_|-on_|-on_|-nop']);
    expect(ret['test_|-off_|-off_|-succeed_with_changes']).toEqual({
      changes: {},
      result: false,
      comment:
        'The state function "test.succeed_with_changes" is currently disabled by "test.succeed_*", to re-enable, run state.enable test.succeed_*.',
      __run_num__: 0,
      __sls__: 'unit',
    });
  });

  it('stops before a state state.soft_kill names, waits out a pause, and clears the pause file', async () => {
    const cachedir = mkdtempSync(join(dir, 'cache-'));
    const jid = '20261127000000000001';
    const path = join(cachedir, 'state_pause', jid);
    mkdirSync(join(cachedir, 'state_pause'));
    const rc = harness({ opts: { cachedir } });
    Object.defineProperty(rc.exec, 'jid', { value: jid });
    writeFileSync(path, packIpc({ a: { duration: 1 }, c: { kill: true } }));
    const started = performance.now();
    const ret = await runChunks([chunk('a', 'test.nop'), chunk('b', 'test.nop'), chunk('c', 'test.nop')], rc);
    expect(performance.now() - started).toBeGreaterThanOrEqual(990);
    expect(Object.keys(ret)).toEqual(['test_|-a_|-a_|-nop', 'test_|-b_|-b_|-nop']);
    expect(existsSync(path)).toBe(false);
  });

  it('fires fire_event results to the master in place of the progress event', async () => {
    const rc = harness();
    const fired: unknown[][] = [];
    const call = rc.exec.call;
    Object.defineProperty(rc.exec, 'call', {
      value: async (fun: string, args: unknown[] = [], kwargs = {}) => {
        if (fun === 'event.fire_master') {
          fired.push(args);
          return true;
        }
        return call(fun, args, kwargs);
      },
    });
    await runChunks(
      [chunk('a', 'test.nop', { fire_event: true }), chunk('b', 'test.nop', { fire_event: 'my/tag' })],
      rc,
    );
    expect(fired.map(([, tag]) => tag)).toEqual([
      'salt/state_result/20240101000000000000/minion-1/a',
      'salt/state_result/20240101000000000000/minion-1/my/tag',
    ]);
    expect(fired[0]?.[0]).toMatchObject({ ret: { name: 'a', result: true, __id__: 'a' } });
    expect(rc.events).toEqual([]);
  });

  it('an onfail_all naming nothing ends as a recursive requisite (Salt 3006.18 dies there with UnboundLocalError)', async () => {
    const ret = await runChunks([chunk('lonely', 'test.nop', { onfail_all: ['nothing'] })], harness());
    expect(ret['test_|-lonely_|-lonely_|-nop']).toMatchObject({
      result: false,
      comment: 'Recursive requisite found',
    });
  });

  it('a chunk without __sls__ is named as state.single names it', async () => {
    const ret = await runChunks([{ state: 'test', fun: 'nope', name: 'x', __id__: 'x' }], harness());
    expect(ret['test_|-x_|-x_|-nope']).toEqual({
      result: false,
      name: 'x',
      changes: {},
      comment: "Specified state 'test.nope' was not found\n",
      __run_num__: 0,
    });
  });
});
