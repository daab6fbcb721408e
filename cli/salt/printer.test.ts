import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobReturn } from '../../kernel/jobs/types.js';
import type { OutputOptions } from '../../outputters/types.js';
import { Printer } from './printer.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A printer writing to a real file, whose state options come from `stateRender` (counted). */
function printer(
  state: Partial<OutputOptions>,
  more: { static?: boolean; summary?: boolean; fun?: string } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-printer-'));
  dirs.push(dir);
  const outFile = join(dir, 'out.txt');
  const calls = { n: 0 };
  const p = new Printer({
    search: { extension_modules: join(dir, 'ext'), extensions: [] },
    render: { color: false },
    stateRender: async () => {
      calls.n++;
      return state;
    },
    static: more.static ?? false,
    fun: more.fun,
    hideTimeout: false,
    summary: more.summary ?? false,
    verbose: false,
    retcodePassthrough: false,
    outFile,
  });
  return { p, calls, text: () => readFileSync(outFile, 'utf8') };
}

const ret = (value: unknown, out?: string): JobReturn => ({
  id: 'm1',
  jid: '20261127120000000000',
  fun: 'state.single',
  fun_args: [],
  return: value,
  retcode: 0,
  success: true,
  ...(out && { out }),
});

const STATE = {
  'test_|-x_|-x_|-succeed_with_changes': {
    name: 'x',
    result: true,
    comment: 'Success!',
    changes: { testing: { old: 'Unchanged', new: 'Something pretended to change' } },
    __run_num__: 0,
    start_time: '12:00:00.000000',
    duration: 1.0,
    __id__: 'x',
  },
};

describe('Printer: the state options load only for a return that needs them', () => {
  it('a nested return never reads them (no zod for test.ping)', async () => {
    const { p, calls, text } = printer({ stateOutput: 'terse' });
    await p.prepare(undefined);
    p.ret('m1', ret(true));
    expect(calls.n).toBe(0);
    expect(text()).toBe('m1:\n    True\n');
  });

  it('a highstate return is printed with them (state_output: terse)', async () => {
    const { p, calls, text } = printer({ stateOutput: 'terse' });
    await p.prepare('highstate');
    await p.prepare('highstate');
    p.ret('m1', ret(STATE, 'highstate'));
    expect(calls.n).toBe(1);
    expect(text()).toContain('Name: x - Function: test.succeed_with_changes - Result: Changed');
    expect(text()).not.toContain('Comment: Success!');
  });
});

// Salt's `salt --static` (salt/cli/salt.py `_run_batch`): a quiet batch whose collected returns
// print once, with no summary, and exit 0 unless nothing returned.
describe('Printer with --static', () => {
  it('prints the returns at once, {} for a minion that never answered, no summary, exit 0', async () => {
    const { p, text } = printer({}, { static: true, summary: true, fun: 'cmd.run' });
    p.startBatch();
    p.ret('m2', { ...ret('', undefined), id: 'm2', retcode: 3 });
    p.noReturn('m1', 'No response');
    expect(text()).toBe('');
    expect(await p.finish()).toBe(0);
    expect(text()).toBe('m1:\n    ----------\nm2:\n');
  });

  it('a state function prints with highstate', async () => {
    const { p, text } = printer({}, { static: true, fun: 'state.single' });
    p.ret('m1', ret(STATE, 'highstate'));
    expect(await p.finish()).toBe(0);
    expect(text()).toMatch(/^m1:\n-{10}\n {10}ID: x\n/);
  });

  it('nothing returned: nothing printed, exit 2', async () => {
    const { p, text } = printer({}, { static: true, fun: 'test.ping' });
    expect(await p.finish()).toBe(2);
    expect(text()).toBe('');
  });
});
