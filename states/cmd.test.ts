import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import cp from '../modules/cp.js';
import { moduleCtx, runState } from './_test-ctx.js';
import cmd from './cmd.js';

// Expectations: Salt 3006.18's `salt-call --local state.single cmd.* ...` output (pids aside).
let dir: string;
let ctx: ReturnType<typeof moduleCtx>;
const run = (fn: string, kw: Record<string, unknown>, test = false) => runState(cmd, fn, kw, { ctx, test });
const noPid = <T extends { changes: Record<string, unknown> }>(r: T): T => {
  if ('pid' in r.changes) r.changes.pid = 'PID';
  return r;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-cmd-'));
  await writeFile(path.join(dir, 's.sh'), '#!/bin/sh\necho "script $1 $2"\n');
  await writeFile(path.join(dir, 't.sh'), '#!/bin/sh\necho "T {{ grains.id }} $1"\n');
  ctx = moduleCtx([cmdMod, cp], {
    opts: { file_client: 'local', file_roots: { base: [dir] }, cachedir: path.join(dir, 'cache') },
    grains: { shell: '/bin/sh', id: 'py1' },
  });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('cmd.run', () => {
  it('returns the command outcome as changes', async () => {
    expect(noPid(await run('run', { name: 'echo hi; echo err >&2' }))).toEqual({
      name: 'echo hi; echo err >&2',
      changes: { pid: 'PID', retcode: 0, stdout: 'hi', stderr: 'err' },
      result: true,
      comment: 'Command "echo hi; echo err >&2" run',
    });
    expect(noPid(await run('run', { name: 'exit 3' }))).toEqual({
      name: 'exit 3',
      changes: { pid: 'PID', retcode: 3, stdout: '', stderr: '' },
      result: false,
      comment: 'Command "exit 3" run',
    });
  });

  it('predicts under test=True, checks cwd and env, honours success_retcodes', async () => {
    expect(await run('run', { name: 'echo hi' }, true)).toEqual({
      name: 'echo hi',
      changes: { cmd: 'echo hi' },
      result: null,
      comment: 'Command "echo hi" would have been executed',
    });
    expect(await run('run', { name: 'pwd', cwd: '/nonexist' })).toEqual({
      name: 'pwd',
      changes: {},
      result: false,
      comment: 'Desired working directory "/nonexist" is not available',
    });
    expect((await run('run', { name: 'echo hi', env: 'bad' })).comment).toBe(
      "Invalidly-formatted 'env' parameter. See documentation.",
    );
    expect((await run('run', { name: 'echo $FOO', env: { FOO: 'bar' } })).changes.stdout).toBe('bar');
    expect(noPid(await run('run', { name: 'exit 2', success_retcodes: [2] }))).toMatchObject({
      changes: { pid: 'PID', retcode: 0, stdout: '', stderr: '' },
      result: true,
    });
  });

  it('reads stateful output: name=value pairs or a JSON object', async () => {
    expect(await run('run', { name: 'echo changed=no', stateful: true })).toEqual({
      name: 'echo changed=no',
      changes: {},
      result: true,
      comment: '',
    });
    const json = noPid(await run('run', { name: 'echo \'{"changed": true, "x": 1}\'', stateful: true }));
    expect(json.changes).toEqual({ changed: true, x: 1, pid: 'PID', retcode: 0, stdout: '', stderr: '' });
    expect(json.comment).toBe('');
    const bad = noPid(await run('run', { name: 'echo changed=yes comment="hello there"', stateful: true }));
    expect(bad).toEqual({
      name: 'echo changed=yes comment="hello there"',
      changes: { pid: 'PID', retcode: 0, stdout: 'changed=yes comment=hello there', stderr: '' },
      result: false,
      comment: 'Failed parsing script output! Stdout must be JSON or a line of name=value pairs.',
    });
    const two = await run('run', { name: "printf 'out\\nchanged=yes comment=ok'", stateful: true });
    expect(two.comment).toBe('ok');
    expect(two.changes).toMatchObject({ changed: 'yes', stdout: 'out', retcode: 0 });
  });

  it('cmd.wait does nothing until mod_watch runs it', async () => {
    expect(await run('wait', { name: 'echo hi' })).toEqual({
      name: 'echo hi',
      changes: {},
      result: true,
      comment: '',
    });
    const watched = await run('mod_watch', { name: 'echo hi', sfun: 'wait' });
    expect(watched.comment).toBe('Command "echo hi" run');
    expect(watched.changes.stdout).toBe('hi');
    const refused = await run('mod_watch', { name: 'x', sfun: 'nope' });
    expect(refused.comment).toBe(
      'cmd.nope does not work with the watch requisite, please use cmd.wait or cmd.wait_script',
    );
    // Salt's mod_watch literals put comment before result (run's order is name, changes, result, comment).
    expect(Object.keys(refused)).toEqual(['name', 'changes', 'comment', 'result']);
    expect(Object.keys(watched)).toEqual(['name', 'changes', 'result', 'comment']);
    const noFunc = await run('mod_watch', { name: 'x', sfun: 'call' });
    expect(noFunc.comment).toBe('cmd.call needs a named parameter func');
    expect(Object.keys(noFunc)).toEqual(['name', 'changes', 'comment', 'result']);
  });
});

describe('cmd.script', () => {
  it('runs a salt:// script with args', async () => {
    expect(noPid(await run('script', { name: 's', source: 'salt://s.sh', args: 'x y' }))).toEqual({
      name: 's',
      changes: { pid: 'PID', retcode: 0, stdout: 'script x y', stderr: '' },
      result: true,
      comment: "Command 's' run",
    });
  });

  it('renders a template first', async () => {
    const r = await run('script', { name: 't', source: 'salt://t.sh', args: 'q', template: 'jinja' });
    expect(r.changes.stdout).toBe('T py1 q');
  });

  it('says when the script cannot be cached (Salt takes the whole name as the source)', async () => {
    for (const name of ['salt://missing.sh', 'salt://s.sh a b']) {
      expect(await run('script', { name })).toEqual({
        name,
        changes: { pid: 0, retcode: 1, stdout: '', stderr: '', cache_error: true },
        result: false,
        comment: `Unable to cache script ${name} from saltenv 'base'`,
      });
    }
  });

  it('predicts under test=True', async () => {
    expect(await run('script', { name: 'salt://s.sh a b' }, true)).toEqual({
      name: 'salt://s.sh a b',
      changes: {},
      result: null,
      comment: "Command 'salt://s.sh a b' would have been executed",
    });
  });
});
