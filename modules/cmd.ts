/**
 * Salt's `cmd` execution module (`salt/modules/cmdmod.py`): run shell commands and scripts.
 *
 * Every runner sets the job retcode to the command's exit status (Salt's
 * `__context__["retcode"]`) by returning a `RetcodeResult`, unless `ignore_retcode`. Called
 * remotely (with `__pub_jid`) the commands go through the minion's shell by default
 * (`python_shell=True`); cross-module calls split the command into argv instead.
 * `cmd.script` takes local paths, salt:// and other URLs (through `cp`), and a `template`.
 * `runas`/`group` run the command as another user/group (`_cmd-runas.ts`); `template` renders the
 * command and cwd first (`_cmd-template.ts`). Not supported yet: `use_vt`.
 */
import { randomBytes } from 'node:crypto';
import { chmod, chown, copyFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
// the light doors: a job process running only cmd.run loads none of the full door's config code
import { SALT_ERR_EXEC_COMMAND, SaltError } from '../kernel/errors.js';
import type { ExecContext, ExtraArgs } from '../kernel/index.js';
import { RetcodeResult } from '../kernel/jobs/retcode.js';
import { defineFunction, defineModule } from '../kernel/loader/define.js';
import { pyStr } from '../kernel/python/index.js';
import {
  type AnyArgs,
  retcodeArgs,
  runAllArgs,
  runArgs,
  runBgArgs,
  scriptArgs,
  scriptRetcodeArgs,
  shellArgs,
  stdArgs,
} from './_cmd-args.js';
import { chrootFunctions } from './_cmd-chroot.js';
import { type CmdOutcome, type CmdResult, cmdRun, defaultShell, pythonShellDefault } from './_cmd-run.js';
import { cmdShellFunctions } from './_cmd-shells.js';
import { passwdByName } from './_passwd-db.js';
import { shlexSplit } from './_shlex.js';
import { which } from './_which.js';

/** Runs with the shared arguments; `over` sets what the public function fixes. */
function run(
  ctx: ExecContext,
  a: AnyArgs,
  extra: ExtraArgs,
  over: {
    cmd?: unknown;
    pythonShell?: boolean;
    redirectStderr?: boolean;
    bg?: boolean;
    rstrip?: boolean;
  } = {},
): Promise<CmdOutcome> {
  return cmdRun(ctx, {
    cmd: over.cmd ?? a.cmd,
    cwd: a.cwd,
    stdin: a.stdin,
    runas: a.runas,
    group: a.group,
    shell: a.shell === undefined ? defaultShell(ctx) : a.shell,
    pythonShell: over.pythonShell ?? pythonShellDefault(ctx, a.python_shell, extra.kwargs),
    env: a.env,
    cleanEnv: a.clean_env ?? false,
    template: a.template,
    saltenv: a.saltenv,
    rstrip: over.rstrip ?? a.rstrip ?? true,
    umask: a.umask,
    outputEncoding: a.output_encoding,
    timeout: a.timeout,
    resetSystemLocale: a.reset_system_locale ?? true,
    ignoreRetcode: a.ignore_retcode ?? false,
    useVt: a.use_vt ?? false,
    bg: over.bg ?? a.bg ?? false,
    redirectStderr: over.redirectStderr ?? a.redirect_stderr ?? false,
    prependPath: a.prepend_path,
    successRetcodes: a.success_retcodes,
    successStdout: a.success_stdout,
    successStderr: a.success_stderr,
    kwargs: extra.kwargs,
  });
}

/**
 * `value` with the retcode the command set, 0 included (Salt's `_run` stores it in
 * `__context__` after every command, so a later success clears an earlier failure); plain where
 * the command left it alone (a timeout).
 */
const jobValue = <T>(value: T, retcode: number | undefined): T | RetcodeResult<T> =>
  retcode === undefined ? value : new RetcodeResult(value, retcode);

async function runStdoutOf(ctx: ExecContext, a: AnyArgs, extra: ExtraArgs, pythonShell?: boolean) {
  const outcome = await run(ctx, a, extra, pythonShell === undefined ? {} : { pythonShell });
  const { ret } = outcome;
  if (a.raise_err && !a.ignore_retcode && ret.retcode !== 0) {
    throw new SALT_ERR_EXEC_COMMAND(a.hide_output ? '' : ret.stdout);
  }
  return jobValue(a.hide_output ? '' : ret.stdout, outcome.jobRetcode);
}

/**
 * Where `cmd.script` reads its source from: a local path or file:// URL as is; salt:// and
 * other URLs through `cp.cache_file` (Salt's `cp.cache_file`), or with `template` rendered by
 * `cp.get_template` into `dest`. Null when it cannot be had (Salt's `cache_error`).
 */
async function scriptSource(
  ctx: ExecContext,
  source: string,
  template: unknown,
  dest: string,
  saltenv: string,
  context: unknown,
): Promise<string | null> {
  if (template) {
    const ctxVars = context && typeof context === 'object' && !Array.isArray(context) ? context : {};
    const got = await ctx.call('cp.get_template', [source, dest], {
      template: pyStr(template),
      saltenv,
      ...(ctxVars as Record<string, unknown>),
    });
    return typeof got === 'string' && got !== '' ? dest : null;
  }
  const bare = source.replace(/\?saltenv=[^?]*$/, '');
  let file: string;
  if (/^file:\/\//.test(bare)) file = fileURLToPath(bare);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(bare)) {
    const got = await ctx.call('cp.cache_file', [source], { saltenv });
    if (typeof got !== 'string' || got === '') return null;
    file = got;
  } else file = path.resolve(bare);
  try {
    if (!(await stat(file)).isFile()) return null;
  } catch {
    return null;
  }
  await copyFile(file, dest);
  return dest;
}

async function runScript(
  ctx: ExecContext,
  a: AnyArgs & { source: string },
  extra: ExtraArgs,
): Promise<{ ret: Partial<CmdResult> & { cache_error?: true }; retcode: number | undefined }> {
  const dir = a.cwd === undefined || a.cwd === null || a.cwd === '' ? os.tmpdir() : pyStr(a.cwd);
  const ext = path.extname(a.source.replace(/\?saltenv=[^?]*$/, ''));
  const tmp = path.join(dir, `tmp${randomBytes(6).toString('hex')}${ext}`);
  const saltenv = typeof a.saltenv === 'string' && a.saltenv ? a.saltenv : 'base';
  const got = await scriptSource(ctx, a.source, a.template, tmp, saltenv, extra.kwargs.context);
  if (got === null)
    return { ret: { pid: 0, retcode: 1, stdout: '', stderr: '', cache_error: true }, retcode: undefined };
  let ret: Partial<CmdResult> = {};
  let retcode: number | undefined;
  try {
    await chmod(tmp, 0o500);
    if (a.runas) {
      // the script must be the runas user's to read and run, as Salt chowns it
      const user = await passwdByName(String(a.runas));
      if (user) await chown(tmp, user.uid, -1);
    }
    const args = a.args;
    const argList =
      args === undefined || args === null || args === ''
        ? []
        : Array.isArray(args)
          ? args.map(pyStr)
          : shlexSplit(pyStr(args));
    const pythonShell = argList.length > 0 ? false : pythonShellDefault(ctx, a.python_shell, extra.kwargs);
    // the template rendered the script itself, not the command line
    const outcome = await run(ctx, { ...a, template: undefined }, extra, {
      cmd: [tmp, ...argList],
      pythonShell,
      rstrip: true,
    });
    ret = outcome.ret;
    retcode = outcome.jobRetcode;
  } catch (err) {
    // Salt logs a CommandExecutionError/SaltInvocationError from _run and returns {}.
    if (!(err instanceof SaltError) || !['SALT_ERR_EXEC_COMMAND', 'SALT_ERR_INVOCATION'].includes(err.code))
      throw err;
    ctx.log.error(
      { source: a.source, err: err.message },
      `cmd.script: Unable to run script '${a.source}': ${err.message}`,
    );
  } finally {
    await rm(tmp, { force: true });
  }
  if (a.hide_output) ret = { ...ret, stdout: '', stderr: '' };
  return { ret, retcode };
}

/** `cmd.exec_code(_all)`'s own arguments (the others are cmd.run_all's). */
const execCodeArgs = z.object({
  lang: z.string(),
  code: z.unknown(),
  cwd: z.string().nullish(),
  args: z.unknown().optional(),
});

const CMD_DOC =
  '\n\nArguments as Salt: cwd, stdin, shell, python_shell, env, clean_env, rstrip, umask, output_encoding, hide_output, timeout, reset_system_locale, ignore_retcode, prepend_path, success_retcodes, success_stdout, success_stderr.';

export default defineModule({
  name: 'cmd',
  doc: 'A module for shelling out. Commands run with the minion user, in its home directory by default.',
  functions: {
    run: defineFunction({
      args: runArgs,
      varkw: true,
      doc: `Execute the passed command and return its output (stderr included unless redirect_stderr=False).${CMD_DOC}`,
      run: (ctx, a, extra) => runStdoutOf(ctx, a, extra),
    }),
    shell: defineFunction({
      args: shellArgs,
      varkw: true,
      doc: `Execute the passed command through the shell and return its output.${CMD_DOC}`,
      run: (ctx, a, extra) => {
        const ps = extra.kwargs.python_shell;
        return runStdoutOf(ctx, a, extra, ps === undefined || ps === null ? true : ps === true);
      },
    }),
    run_stdout: defineFunction({
      args: stdArgs,
      varkw: true,
      doc: `Execute a command and only return the standard out.${CMD_DOC}`,
      run: async (ctx, a, extra) => {
        const o = await run(ctx, a, extra);
        return jobValue(a.hide_output ? '' : o.ret.stdout, o.jobRetcode);
      },
    }),
    run_stderr: defineFunction({
      args: stdArgs,
      varkw: true,
      doc: `Execute a command and only return the standard error.${CMD_DOC}`,
      run: async (ctx, a, extra) => {
        const o = await run(ctx, a, extra);
        return jobValue(a.hide_output ? '' : o.ret.stderr, o.jobRetcode);
      },
    }),
    run_all: defineFunction({
      args: runAllArgs,
      varkw: true,
      doc: `Execute the passed command and return {pid, retcode, stdout, stderr}.${CMD_DOC}`,
      run: async (ctx, a, extra) => {
        const o = await run(ctx, a, extra);
        const ret = a.hide_output ? { ...o.ret, stdout: '', stderr: '' } : o.ret;
        return jobValue(ret, o.jobRetcode);
      },
    }),
    retcode: defineFunction({
      args: retcodeArgs,
      varkw: true,
      doc: `Execute a shell command and return the command's return code.${CMD_DOC}`,
      run: async (ctx, a, extra) => {
        const o = await run(ctx, a, extra, { redirectStderr: true });
        return jobValue(o.ret.retcode, o.jobRetcode);
      },
    }),
    script: defineFunction({
      args: scriptArgs,
      varkw: true,
      doc: 'Run a script (a local path, a file:// or salt:// URL; rendered first with template=) with optional args, and return {pid, retcode, stdout, stderr}.',
      run: async (ctx, a, extra) => {
        const { ret, retcode } = await runScript(ctx, a, extra);
        return jobValue(ret, retcode);
      },
    }),
    script_retcode: defineFunction({
      args: scriptRetcodeArgs,
      varkw: true,
      doc: 'Run a local script (see cmd.script) and return only its return code.',
      run: async (ctx, a, extra) => {
        const { ret, retcode } = await runScript(ctx, a, extra);
        if (!('retcode' in ret))
          throw new SALT_ERR_EXEC_COMMAND(`cmd.script_retcode: unable to run script '${a.source}'`);
        return jobValue(ret.retcode, retcode);
      },
    }),
    run_bg: defineFunction({
      args: runBgArgs,
      varkw: true,
      doc: 'Execute the passed command in the background and return {pid}.',
      run: async (ctx, a, extra) => {
        const o = await run(ctx, a, extra, { bg: true, rstrip: false });
        return { pid: o.ret.pid };
      },
    }),
    which: defineFunction({
      args: z.object({ cmd: z.string() }),
      doc: 'Return the path of an executable available on the minion, None otherwise.',
      run: (_ctx, { cmd }) => which(cmd),
    }),
    which_bin: defineFunction({
      args: z.object({ cmds: z.array(z.string()) }),
      doc: 'Return the first command found in a list of commands.',
      run: (_ctx, { cmds }) => {
        for (const c of cmds) {
          const found = which(c);
          if (found) return found;
        }
        return null;
      },
    }),
    exec_code_all: defineFunction({
      args: execCodeArgs,
      varkw: true,
      doc: `Run code in the named language (python3, ruby, perl, ...) from a temp file; return {pid, retcode, stdout, stderr}. args: more arguments after the file; other keywords as cmd.run_all's.\n\nCLI Example:\n\n    salt '*' cmd.exec_code_all ruby 'puts "cheese"'`,
      run: async (ctx, a, extra) =>
        (await import('./_cmd-exec-code.js')).execCodeAll(ctx, a.lang, a.code, a.cwd, a.args, extra.kwargs),
    }),
    exec_code: defineFunction({
      args: execCodeArgs,
      varkw: true,
      doc: `Run code in the named language from a temp file and return its stdout (see cmd.exec_code_all).\n\nCLI Example:\n\n    salt '*' cmd.exec_code ruby 'puts "cheese"'`,
      run: async (ctx, a, extra) => {
        const { execCodeAll } = await import('./_cmd-exec-code.js');
        return ((await execCodeAll(ctx, a.lang, a.code, a.cwd, a.args, extra.kwargs)) as { stdout: string })
          .stdout;
      },
    }),
    has_exec: defineFunction({
      args: z.object({ cmd: z.string() }),
      doc: 'Return True if the executable is available on the minion.',
      run: (_ctx, { cmd }) => which(cmd) !== null,
    }),
    ...cmdShellFunctions,
    ...chrootFunctions,
  },
});
