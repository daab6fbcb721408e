// state.template_str, state.template, state.orchestrate and state.get_pauses through a real
// masterless salt-call, with the answers Salt 3006.18 gives for the same input
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localCaller } from '../support/local-call.js';

const strip = (ret: unknown) =>
  Object.fromEntries(
    Object.entries(ret as Record<string, Record<string, unknown>>).map(([k, v]) => {
      const { duration: _d, start_time: _s, ...rest } = v;
      return [k, rest];
    }),
  );

describe('state.template_str and state.template', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-sttpl-'));
  const call = localCaller(root, 'tpl1');
  const tpl = join(root, 'one.sls');

  beforeAll(() => {
    mkdirSync(join(root, 'srv'), { recursive: true });
    mkdirSync(join(root, 'pillar'), { recursive: true });
    writeFileSync(join(root, 'srv/orch.sls'), 'o:\n  test.succeed_without_changes\n');
    writeFileSync(tpl, 'a:\n  test.nop:\n    - name: x\nb:\n  test.succeed_without_changes\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('template_str renders with grains and runs in Salt order (by name, no auto order), with no __sls__', async () => {
    const r = await call(
      'state.template_str',
      'hello:\n  test.succeed_without_changes\nw:\n  test.nop:\n    - name: {{ grains.id }}\n',
    );
    expect(r.code).toBe(0);
    expect(strip(r.local)).toEqual({
      'test_|-w_|-tpl1_|-nop': {
        name: 'tpl1',
        changes: {},
        result: true,
        comment: 'Success!',
        __sls__: null,
        __run_num__: 1,
        __id__: 'w',
      },
      'test_|-hello_|-hello_|-succeed_without_changes': {
        name: 'hello',
        changes: {},
        result: true,
        comment: 'Success!',
        __sls__: null,
        __run_num__: 0,
        __id__: 'hello',
      },
    });
  });

  it("template_str: Salt's errors for includes and shorthand that is not a state", async () => {
    let r = await call('state.template_str', 'include: [a]');
    expect(r.code).toBe(1);
    expect(r.local).toEqual([
      "The 'include' declaration found on '<template-str>' is invalid when rendering single templates",
    ]);
    r = await call('state.template_str', 'a: b');
    expect(r.local).toEqual(['ID a in template <template-str> is not a dictionary']);
    r = await call('state.template_str', 'x: 1');
    expect(r.code).toBe(1);
    expect(r.output).toContain("Passed invalid arguments: 'int' object is not iterable.");
  });

  it('template runs a file on the minion in file order, named by its path', async () => {
    const r = await call('state.template', tpl.replace(/\.sls$/, ''));
    expect(r.code).toBe(0);
    const ret = strip(r.local) as Record<string, Record<string, unknown>>;
    expect(ret['test_|-a_|-x_|-nop']).toMatchObject({ __sls__: tpl, __run_num__: 0 });
    expect(ret['test_|-b_|-b_|-succeed_without_changes']).toMatchObject({ __sls__: tpl, __run_num__: 1 });
    const missing = await call('state.template', join(root, 'none'));
    expect(missing.code).toBe(1);
    expect(missing.local).toEqual([
      `Specified SLS ${join(root, 'none.sls')} on local filesystem cannot be found.`,
    ]);
  });

  it("orchestrate answers in the runner's shape", async () => {
    const r = await call('state.orchestrate', 'orch');
    expect(r.code).toBe(0);
    const ret = r.local as { data: Record<string, unknown>; outputter: string; retcode: number };
    expect(ret.outputter).toBe('highstate');
    expect(ret.retcode).toBe(0);
    expect(Object.keys(ret.data)).toEqual(['tpl1']);
    expect(Object.keys(ret.data.tpl1 as object)).toEqual(['test_|-o_|-o_|-succeed_without_changes']);
  });

  it('get_pauses drops the pause files of state jobs that are not running', async () => {
    expect((await call('state.pause', '20990101000000000000')).code).toBe(0);
    expect((await call('state.get_pauses')).local).toEqual({});
  });
});
