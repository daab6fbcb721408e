import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/errors.js';
import { moduleCtx } from '../states/_test-ctx.js';
import { runAllArgs, scriptArgs } from './_cmd-args.js';
import { fakeCtx, invoke, type memoryLogger } from './_fake-ctx.js';
import { runProcess } from './_spawn.js';
import cmd from './cmd.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
/** What a remote call carries: the publish jid makes python_shell default to True. */
const remote = (o: Record<string, unknown> = {}) => kw({ __pub_jid: '20240101000000000000', ...o });

let tmp: string;
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'tsalt-cmd-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('cmd.run', () => {
  it('runs a command split into argv when called locally', async () => {
    expect(await invoke(cmd, 'run', ['echo hi'])).toEqual({ value: 'hi', retcode: 0 });
    expect((await invoke(cmd, 'run', ['echo "a | b"'])).value).toBe('a | b');
  });

  it('uses the shell for remote calls (python_shell defaults to True with __pub_jid)', async () => {
    expect((await invoke(cmd, 'run', ['echo hi | tr h H', remote()])).value).toBe('Hi');
    expect((await invoke(cmd, 'run', ['echo hi | tr h H', kw({ python_shell: true })])).value).toBe('Hi');
    expect((await invoke(cmd, 'run', ['echo hi | tr h H', remote({ python_shell: false })])).value).toBe(
      'hi | tr h H',
    );
    const ctx = fakeCtx({ opts: { cmd_safe: false } });
    expect((await invoke(cmd, 'run', ['echo $((1+2))'], ctx)).value).toBe('3');
  });

  it('sets the job retcode from the exit status, unless ignore_retcode', async () => {
    expect(await invoke(cmd, 'run', ['false'])).toEqual({ value: '', retcode: 1 });
    expect(await invoke(cmd, 'run', ['sh -c "echo out; exit 3"'])).toEqual({ value: 'out', retcode: 3 });
    expect(await invoke(cmd, 'run', ['false', kw({ ignore_retcode: true })])).toEqual({
      value: '',
      retcode: 0,
    });
  });

  it('merges stderr into stdout in order, unless redirect_stderr=False', async () => {
    const script = 'echo a; echo b >&2; echo c; echo d >&2';
    expect((await invoke(cmd, 'run', [script, remote()])).value).toBe('a\nb\nc\nd');
    expect((await invoke(cmd, 'run', [script, remote({ redirect_stderr: false })])).value).toBe('a\nc');
  });

  it("takes arguments in Salt's positional order", async () => {
    expect((await invoke(cmd, 'run', ['pwd', tmp])).value).toBe(tmp);
    expect(Object.keys(runAllArgs.shape).slice(0, 8)).toEqual([
      'cmd',
      'cwd',
      'stdin',
      'runas',
      'group',
      'shell',
      'python_shell',
      'env',
    ]);
    expect(Object.keys(runAllArgs.shape).indexOf('redirect_stderr')).toBe(21);
    expect(Object.keys(scriptArgs.shape).slice(0, 3)).toEqual(['source', 'args', 'cwd']);
  });

  it('runs in cwd, defaulting to the home directory', async () => {
    expect((await invoke(cmd, 'run', ['pwd', kw({ cwd: tmp })])).value).toBe(tmp);
    expect((await invoke(cmd, 'run', ['pwd'])).value).toBe(os.homedir());
  });

  it('refuses a missing or relative cwd with Salt wording', async () => {
    await expect(invoke(cmd, 'run', ['pwd', kw({ cwd: '/no/such/dir' })])).rejects.toMatchObject({
      code: 'SALT_ERR_EXEC_COMMAND',
      message: "Specified cwd '/no/such/dir' either not absolute or does not exist",
    });
    await expect(invoke(cmd, 'run', ['pwd', kw({ cwd: 'tmp' })])).rejects.toBeInstanceOf(
      SALT_ERR_EXEC_COMMAND,
    );
  });

  it('passes env (map or list of maps) and forces the C locale', async () => {
    expect((await invoke(cmd, 'run', ['echo $FOO-$LC_CTYPE', remote({ env: { FOO: 'bar' } })])).value).toBe(
      'bar-C',
    );
    expect((await invoke(cmd, 'run', ['echo $A$B', remote({ env: [{ A: 1 }, { B: true }] })])).value).toBe(
      '1True',
    );
    expect((await invoke(cmd, 'run', ['echo $LC_CTYPE', remote({ env: { LC_CTYPE: 'X' } })])).value).toBe(
      'X',
    );
    const clean = await invoke(cmd, 'run', ['env', kw({ clean_env: true, env: { ONLY: 'me' } })]);
    expect((clean.value as string).split('\n')).toContain('ONLY=me');
    expect(clean.value as string).not.toContain('HOME=');
  });

  it('feeds stdin, turning a literal \\n into a newline', async () => {
    expect((await invoke(cmd, 'run', ['cat', kw({ stdin: 'one\\ntwo' })])).value).toBe('one\ntwo');
    expect(
      (await invoke(cmd, 'run', ['cat', kw({ stdin: 'one\\ntwo', stdin_raw_newlines: true })])).value,
    ).toBe('one\\ntwo');
    expect((await invoke(cmd, 'run', ['cat', kw({ stdin: 42 })])).value).toBe('42');
  });

  it('times out with Salt message, kills the process group, leaves the job retcode alone', async () => {
    const started = Date.now();
    const res = await invoke(cmd, 'run_all', ['sleep 5', kw({ timeout: 1 })]);
    expect(Date.now() - started).toBeLessThan(3000);
    const ret = res.value as { pid: number; retcode: number; stdout: string; stderr: string };
    expect(ret.stdout).toBe("['sleep', '5'] : Timed out after 1 seconds");
    expect(ret.retcode).toBe(1);
    expect(ret.stderr).toBe('');
    expect(res.retcode).toBe(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(ret.pid)).toBe(false);

    const shellRes = await invoke(cmd, 'run', ['sleep 5; echo done', remote({ timeout: 1 })]);
    expect(shellRes.value).toBe('sleep 5; echo done : Timed out after 1 seconds');
  });

  it('kills grandchildren on timeout (whole process group)', async () => {
    const marker = path.join(tmp, 'grandchild');
    const res = await invoke(cmd, 'run_all', [`(sleep 2; touch ${marker}) & wait`, remote({ timeout: 0.5 })]);
    expect((res.value as { stdout: string }).stdout).toMatch(/Timed out after 0.5 seconds$/);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await readdir(tmp)).not.toContain('grandchild');
  }, 10000);

  it('rejects a non-numeric timeout', async () => {
    await expect(invoke(cmd, 'run', ['true', kw({ timeout: 'soon' })])).rejects.toMatchObject({
      code: 'SALT_ERR_INVOCATION',
      message: 'Error: timeout soon must be a number',
    });
  });

  it('handles big output', async () => {
    const { value } = await invoke(cmd, 'run_stdout', ['head -c 20000000 /dev/zero']);
    expect((value as string).length).toBe(20000000);
  });

  it("output past the default cap (64 MiB) is marked, not cut silently; the retcode stays the command's", async () => {
    const ctx = fakeCtx();
    const { value, retcode } = await invoke(cmd, 'run_stdout', ['head -c 67108874 /dev/zero', remote()], ctx);
    const text = value as string;
    const notice =
      "VALUE_TRIMMED: the command's stdout went over max_cmd_output_size (67108864 bytes); the last 10 bytes were dropped";
    expect(text.length).toBe(67108864 + 1 + notice.length);
    expect(text.endsWith(`\0\n${notice}`)).toBe(true);
    expect(retcode).toBe(0);
    expect((ctx.log as ReturnType<typeof memoryLogger>).lines).toContainEqual([
      'warn',
      expect.objectContaining({ max_cmd_output_size: 67108864 }),
      notice,
    ]);
  });

  it('max_cmd_output_size: cmd.run ends with the VALUE_TRIMMED line, run_all says it in warnings, a character cut in two is left out', async () => {
    const ctx = () => fakeCtx({ opts: { max_cmd_output_size: 1001 } });
    // 600 two-byte characters: the cap falls inside the 501st (passed as cmd=: it holds `=`)
    const script = "i=0; while [ $i -lt 600 ]; do printf 'é'; i=$((i+1)); done; echo done >&2";
    const notice =
      "VALUE_TRIMMED: the command's stdout went over max_cmd_output_size (1001 bytes); the last 199 bytes were dropped";
    const logged = ctx();
    expect((await invoke(cmd, 'run', [remote({ cmd: script, redirect_stderr: false })], logged)).value).toBe(
      `${'é'.repeat(500)}\n${notice}`,
    );
    expect(JSON.stringify((logged.log as ReturnType<typeof memoryLogger>).lines)).not.toContain(
      'Failed to decode',
    );
    const all = await invoke(cmd, 'run_all', [remote({ cmd: script })], ctx());
    expect(all.retcode).toBe(0);
    expect(all.value).toMatchObject({ retcode: 0, stderr: 'done', warnings: [notice] });
    expect((all.value as { stdout: string }).stdout.endsWith(notice)).toBe(true);
    const small = await invoke(cmd, 'run_all', ['echo fits', remote()], ctx());
    expect(small.value).not.toHaveProperty('warnings');
  });

  it('caps collected output per stream', async () => {
    const res = await runProcess({
      argv: ['head', '-c', '100000', '/dev/zero'],
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      stdin: null,
      maxBytes: 1000,
    });
    expect(res.stdout.length).toBe(1000);
    expect(res.truncated).toEqual({ stdout: true, stderr: false });
    expect(res.dropped).toEqual({ stdout: 99000, stderr: 0 });
    expect(res.returncode).toBe(0);
  });

  it('reports a missing program (no shell) as Salt does', async () => {
    const err = await invoke(cmd, 'run', ['no-such-program-xyz --flag']).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SALT_ERR_EXEC_COMMAND);
    expect((err as Error).message).toMatch(
      /^Unable to run command '\['no-such-program-xyz', '--flag'\]' with the context '\{.*\}', reason: \[Errno 2\] No such file or directory: 'no-such-program-xyz'$/,
    );
  });

  it('lets the shell report a missing program (retcode 127)', async () => {
    const res = await invoke(cmd, 'run', ['no-such-program-xyz', remote()]);
    expect(res.retcode).toBe(127);
    expect(res.value).toMatch(/not found/);
  });

  it('refuses an unavailable shell', async () => {
    await expect(invoke(cmd, 'run', ['true', kw({ shell: '/no/shell' })])).rejects.toMatchObject({
      message: 'The shell /no/shell is not available',
    });
  });

  it('honours ctx.signal', async () => {
    const ac = new AbortController();
    const started = Date.now();
    const pending = invoke(cmd, 'run', ['sleep 5'], fakeCtx({ signal: ac.signal }));
    setTimeout(() => ac.abort(), 100);
    await expect(pending).rejects.toBeInstanceOf(SALT_ERR_EXEC_COMMAND);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('applies umask, prepend_path, success_retcodes, success_stdout, hide_output, raise_err, rstrip', async () => {
    expect((await invoke(cmd, 'run', ['umask', remote({ umask: '077' })])).value).toBe('0077');
    await expect(invoke(cmd, 'run', ['true', kw({ umask: '000' })])).rejects.toMatchObject({
      message: 'Zero umask is not allowed.',
    });
    await expect(invoke(cmd, 'run', ['true', kw({ umask: '999' })])).rejects.toMatchObject({
      message: "Invalid umask: '999'",
    });
    expect((await invoke(cmd, 'run', ['echo $PATH', remote({ prepend_path: '/opt/x' })])).value).toMatch(
      /^\/opt\/x:/,
    );
    expect(await invoke(cmd, 'run', ['sh -c "exit 3"', kw({ success_retcodes: [3] })])).toEqual({
      value: '',
      retcode: 0,
    });
    expect((await invoke(cmd, 'run', ['sh -c "exit 3"', kw({ success_retcodes: '2, 3' })])).retcode).toBe(0);
    await expect(invoke(cmd, 'run', ['true', kw({ success_retcodes: 'x' })])).rejects.toBeInstanceOf(
      SALT_ERR_INVOCATION,
    );
    expect(
      (await invoke(cmd, 'run', ['sh -c "echo ok; exit 2"', kw({ success_stdout: 'ok' })])).retcode,
    ).toBe(0);
    expect(await invoke(cmd, 'run', ['sh -c "echo x; exit 2"', kw({ hide_output: true })])).toEqual({
      value: '',
      retcode: 2,
    });
    await expect(
      invoke(cmd, 'run', ['sh -c "echo bad; exit 2"', kw({ raise_err: true })]),
    ).rejects.toMatchObject({
      message: 'bad',
    });
    expect((await invoke(cmd, 'run', ['printf "a  \\n\\n"', remote({ rstrip: false })])).value).toBe(
      'a  \n\n',
    );
  });

  it('honours cmd_blacklist_glob / cmd_whitelist_glob for remote calls', async () => {
    const ctx = fakeCtx({ opts: { cmd_blacklist_glob: ['rm *'] } });
    await expect(invoke(cmd, 'run', ['rm -rf /nothing', remote()], ctx)).rejects.toMatchObject({
      message: 'The shell command "rm -rf /nothing" is not permitted',
    });
    const white = fakeCtx({ opts: { cmd_whitelist_glob: ['echo *'] } });
    expect((await invoke(cmd, 'run', ['echo ok', remote()], white)).value).toBe('ok');
    await expect(invoke(cmd, 'run', ['ls', remote()], white)).rejects.toBeInstanceOf(SALT_ERR_EXEC_COMMAND);
  });

  it('decodes with output_encoding', async () => {
    const res = await invoke(cmd, 'run', ["printf '\\351'", remote({ output_encoding: 'latin1' })]);
    expect(res.value).toBe('é');
  });
});

describe('cmd.run_all / run_stdout / run_stderr / retcode / shell', () => {
  it('run_all returns pid, retcode, stdout, stderr and sets the retcode', async () => {
    const res = await invoke(cmd, 'run_all', ['echo out; echo err >&2; exit 4', remote()]);
    expect(res.retcode).toBe(4);
    expect(res.value).toEqual({ pid: expect.any(Number), retcode: 4, stdout: 'out', stderr: 'err' });
    expect(Object.keys(res.value as object)).toEqual(['pid', 'retcode', 'stdout', 'stderr']);
  });

  it('run_stdout and run_stderr return one stream each', async () => {
    expect((await invoke(cmd, 'run_stdout', ['echo out; echo err >&2', remote()])).value).toBe('out');
    expect((await invoke(cmd, 'run_stderr', ['echo out; echo err >&2', remote()])).value).toBe('err');
  });

  it('retcode returns the exit status (and sets it)', async () => {
    expect(await invoke(cmd, 'retcode', ['sh -c "exit 3"'])).toEqual({ value: 3, retcode: 3 });
    expect(await invoke(cmd, 'retcode', ['true'])).toEqual({ value: 0, retcode: 0 });
  });

  it('shell always uses the shell, unless python_shell=False', async () => {
    expect((await invoke(cmd, 'shell', ['echo $((2+3))'])).value).toBe('5');
    expect((await invoke(cmd, 'shell', ['echo $((2+3))', kw({ python_shell: false })])).value).toBe(
      '$((2+3))',
    );
  });

  it('run_bg starts the command and returns its pid', async () => {
    const marker = path.join(tmp, 'bg-done');
    const res = await invoke(cmd, 'run_bg', [`touch ${marker}`, remote()]);
    expect(res.value).toEqual({ pid: expect.any(Number) });
    for (let i = 0; i < 50 && !(await readdir(tmp)).includes('bg-done'); i += 1) {
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await readdir(tmp)).toContain('bg-done');
  });
});

describe('cmd.script', () => {
  it('runs a local script with shell-split args in cwd and cleans up', async () => {
    const src = path.join(tmp, 'hello.sh');
    await writeFile(src, '#!/bin/sh\necho "n=$# 1=$1 2=$2"\npwd\nexit 5\n');
    const work = await mkdtemp(path.join(tmp, 'work-'));
    const res = await invoke(cmd, 'script', [src, 'a "b c"', kw({ cwd: work })]);
    expect(res.retcode).toBe(5);
    expect(res.value).toMatchObject({ retcode: 5, stdout: `n=2 1=a 2=b c\n${work}`, stderr: '' });
    expect(await readdir(work)).toEqual([]);
    // script_retcode renders its source with jinja unless told otherwise (Salt's template='jinja')
    expect(await invoke(cmd, 'script_retcode', [src, kw({ cwd: work, template: null })])).toEqual({
      value: 5,
      retcode: 5,
    });
  });

  it('reports a missing source as Salt does (cache_error)', async () => {
    expect((await invoke(cmd, 'script', ['/no/such/script.sh'])).value).toEqual({
      pid: 0,
      retcode: 1,
      stdout: '',
      stderr: '',
      cache_error: true,
    });
  });

  it('fetches salt:// sources through cp.cache_file; one it cannot have is a cache_error', async () => {
    const calls: unknown[] = [];
    const ctx = fakeCtx({
      call: async (fun, args, kwargs) => {
        calls.push([fun, args, kwargs]);
        return false;
      },
    });
    const got = await invoke(cmd, 'script', ['salt://scripts/x.sh'], ctx);
    expect(got.value).toEqual({ pid: 0, retcode: 1, stdout: '', stderr: '', cache_error: true });
    expect(calls).toEqual([['cp.cache_file', ['salt://scripts/x.sh'], { saltenv: 'base' }]]);
  });
});

describe('cmd.which / which_bin / has_exec', () => {
  it('finds executables on PATH', async () => {
    expect((await invoke(cmd, 'which', ['sh'])).value).toMatch(/\/sh$/);
    expect((await invoke(cmd, 'which', ['no-such-program-xyz'])).value).toBeNull();
    expect((await invoke(cmd, 'which_bin', [['no-such-program-xyz', 'sh']])).value).toMatch(/\/sh$/);
    expect((await invoke(cmd, 'has_exec', ['sh'])).value).toBe(true);
  });
});

describe('cmd.exec_code / exec_code_all', () => {
  // Expectations: Salt 3006.18's returns for the same calls (salt-call --local)
  const ctx = moduleCtx([cmd]);
  it('runs the code from a temp file with the arguments after it, and removes the file', async () => {
    const all = (await ctx.call('cmd.exec_code_all', ['sh', 'echo err >&2; echo "$@"; exit 3'], {
      args: ['a b', 'c'],
    })) as Record<string, unknown>;
    expect(all).toEqual({ pid: expect.any(Number), retcode: 3, stdout: 'a b c', stderr: 'err' });
    expect(await ctx.call('cmd.exec_code', ['sh', 'echo "$#"'], { args: 'x y' })).toBe('1');
    expect(
      await ctx.call('cmd.exec_code', ['sh', 'pwd; echo "$FOO"'], { cwd: tmp, env: { FOO: 'bar' } }),
    ).toBe(`${tmp}\nbar`);
    const file = String(await ctx.call('cmd.exec_code', ['sh', 'echo "$0"']));
    expect(path.dirname(file)).toBe(os.tmpdir());
    expect(path.basename(file)).toMatch(/^tmp\w+$/);
    expect(existsSync(file)).toBe(false);
  });
});
