/**
 * Salt's `cmdmod._run` (`salt/modules/cmdmod.py`): the one place the `cmd` module starts a
 * process. It applies Salt's rules for cwd, env, locale, shell vs argv, stdin, timeout,
 * success codes and the retcode the job gets.
 */
import { accessSync, constants as fsConstants, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { TextDecoder } from 'node:util';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/errors.js';
import type { ExecContext } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/python/index.js';
import { abortError } from './_abort.js';
import { runasSetup } from './_cmd-runas.js';
import { fnmatch } from './_fnmatch.js';
import { outputCap, trimmedNotice, withTrimmedMarker } from './_output-cap.js';
import { shlexSplit } from './_shlex.js';
import { runProcess, spawnDetached } from './_spawn.js';

/** Salt's `_run` arguments that tsalt honours, already defaulted by the public function. */
export interface CmdRunOptions {
  cmd: unknown;
  cwd?: unknown;
  stdin?: unknown;
  runas?: string | null | undefined;
  group?: string | null | undefined;
  shell?: string | null | undefined;
  pythonShell: boolean;
  env?: unknown;
  cleanEnv?: boolean;
  template?: unknown;
  /** The saltenv a `template` renders in. */
  saltenv?: unknown;
  rstrip?: boolean;
  umask?: unknown;
  outputEncoding?: string | null | undefined;
  timeout?: unknown;
  resetSystemLocale?: boolean;
  ignoreRetcode?: boolean;
  useVt?: boolean;
  bg?: boolean;
  /** Send stderr into stdout (Salt `stderr=subprocess.STDOUT`). */
  redirectStderr?: boolean;
  prependPath?: string | null | undefined;
  successRetcodes?: unknown;
  successStdout?: unknown;
  successStderr?: unknown;
  /** The function's `**kwargs` (`__pub_jid`, `stdin_raw_newlines`, ...). */
  kwargs?: Readonly<Record<string, unknown>>;
}

/** `cmd.run_all`'s return. `retcode` is `null` for a background command. */
export interface CmdResult {
  pid: number;
  retcode: number | null;
  stdout: string;
  stderr: string;
  /** Only when output went over `max_cmd_output_size` (tsalt; Salt keeps all output). */
  warnings?: string[];
}

/** The result, and the retcode Salt would put in `__context__` (`undefined`: left alone, as after a timeout). */
export interface CmdOutcome {
  ret: CmdResult;
  jobRetcode: number | undefined;
}

const LOCALE_VARS = [
  'LC_CTYPE',
  'LC_NUMERIC',
  'LC_TIME',
  'LC_COLLATE',
  'LC_MONETARY',
  'LC_MESSAGES',
  'LC_PAPER',
  'LC_NAME',
  'LC_ADDRESS',
  'LC_TELEPHONE',
  'LC_MEASUREMENT',
  'LC_IDENTIFICATION',
  'LANGUAGE',
];

const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  ENOEXEC: 'Exec format error',
  ENOTDIR: 'Not a directory',
  E2BIG: 'Argument list too long',
};

/** The minion's default shell: the `shell` grain, else `$SHELL`, else /bin/sh (Salt `grains.extra.shell`). */
export function defaultShell(ctx: ExecContext): string {
  const grain = ctx.grains.shell;
  return typeof grain === 'string' && grain ? grain : (process.env.SHELL ?? '/bin/sh');
}

/** Salt's `_python_shell_default`: remote calls (with `__pub_jid`) and `cmd_safe: False` default to a shell. */
export function pythonShellDefault(
  ctx: ExecContext,
  pythonShell: boolean | null | undefined,
  kwargs: Readonly<Record<string, unknown>>,
): boolean {
  if (pythonShell === null || pythonShell === undefined) {
    if (kwargs.__pub_jid) return true;
    if (ctx.opts.cmd_safe === false) return true;
    return false;
  }
  return pythonShell;
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Salt's `_parse_env`: a map, or a list of one-key maps; anything else is ignored. None becomes ''. */
export function parseEnv(env: unknown): Record<string, string> {
  let map: Record<string, unknown> = {};
  if (Array.isArray(env)) {
    for (const item of env)
      if (item && typeof item === 'object' && !Array.isArray(item)) Object.assign(map, item);
  } else if (env && typeof env === 'object') {
    map = env as Record<string, unknown>;
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[k] = v === null || v === undefined ? '' : pyStr(v);
  return out;
}

/** Salt's `split_input`: a list as is, else the comma-separated parts of its text. */
function splitInput(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return pyStr(value)
    .split(',')
    .map((s) => s.trim());
}

function checkAvail(ctx: ExecContext, cmd: string): boolean {
  const globs = (key: string): string[] => {
    const v = ctx.opts[key];
    return Array.isArray(v) ? v.map(String) : [];
  };
  const black = globs('cmd_blacklist_glob');
  const white = globs('cmd_whitelist_glob');
  const allowedByBlack = !black.some((g) => fnmatch(cmd, g));
  const allowedByWhite = white.length === 0 || white.some((g) => fnmatch(cmd, g));
  return allowedByBlack && allowedByWhite;
}

/** Finds `program` the way exec does (with `PATH` from the child's env); returns an errno code or null. */
function execProblem(program: string, cwd: string, pathVar: string | undefined): string | null {
  const candidates = program.includes('/')
    ? [path.resolve(cwd, program)]
    : (pathVar ?? '/usr/local/bin:/usr/bin:/bin').split(':').map((d) => path.resolve(cwd, d || '.', program));
  let sawFile = false;
  for (const c of candidates) {
    try {
      const st = statSync(c);
      if (!st.isFile()) {
        if (program.includes('/')) return st.isDirectory() ? 'EACCES' : 'ENOENT';
        continue;
      }
      sawFile = true;
      accessSync(c, fsConstants.X_OK);
      return null;
    } catch {
      // keep looking
    }
  }
  return sawFile ? 'EACCES' : 'ENOENT';
}

function runError(display: unknown, context: Record<string, unknown>, errno: string, file: string): Error {
  const num = os.constants.errno[errno as keyof typeof os.constants.errno] ?? 0;
  const reason = `[Errno ${num}] ${ERRNO_TEXT[errno] ?? errno}: ${pyRepr(file)}`;
  return new SALT_ERR_EXEC_COMMAND(
    `Unable to run command '${pyStr(display)}' with the context '${pyRepr(context)}', reason: ${reason}`,
  );
}

/**
 * Decodes a stream's bytes; `cut`: they stop at the output cap, perhaps inside a character,
 * whose first bytes are then left out rather than reported as undecodable.
 */
function decode(
  ctx: ExecContext,
  buf: Buffer,
  encoding: string,
  what: string,
  display: string,
  cut = false,
): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new SALT_ERR_EXEC_COMMAND(`unknown encoding: ${encoding}`);
  }
  try {
    return decoder.decode(buf, { stream: cut });
  } catch {
    ctx.log.error(
      { cmd: display },
      `Failed to decode ${what} from command ${display}, non-decodable characters have been replaced`,
    );
    return new TextDecoder(encoding).decode(buf);
  }
}

/** Runs a command with Salt's `_run` semantics. Throws `SALT_ERR_EXEC_COMMAND` as Salt raises CommandExecutionError. */
export async function cmdRun(ctx: ExecContext, o: CmdRunOptions): Promise<CmdOutcome> {
  const kwargs = o.kwargs ?? {};
  let cwd: string;
  const runas = await runasSetup(o.runas, o.group);
  if (o.cwd === undefined || o.cwd === null || o.cwd === '' || o.cwd === false || o.cwd === 0) {
    cwd = runas?.home ?? os.homedir();
    try {
      accessSync(cwd, fsConstants.R_OK);
    } catch {
      cwd = '/';
    }
  } else cwd = pyStr(o.cwd);
  const bg = o.bg === true;
  const ignoreRetcode = bg || o.ignoreRetcode === true;

  if (o.shell && !isExecutableFile(o.shell))
    throw new SALT_ERR_EXEC_COMMAND(`The shell ${o.shell} is not available`);
  let cmd = o.cmd;
  if (o.template) {
    // the template engine (renderers, file client: ~100 modules, ~100 ms of a job process's
    // start) loads only for a command that asks for it
    const { renderCmd } = await import('./_cmd-template.js');
    ({ cmd, cwd } = await renderCmd(ctx, o.template, cmd, cwd, o.saltenv, kwargs));
  }
  if (
    kwargs.__pub_jid !== undefined &&
    !checkAvail(ctx, Array.isArray(cmd) ? cmd.map(pyStr).join(' ') : pyStr(cmd))
  ) {
    throw new SALT_ERR_EXEC_COMMAND(`The shell command "${pyStr(cmd)}" is not permitted`);
  }
  if (o.useVt && !bg) throw new SALT_ERR_EXEC_COMMAND('use_vt is not supported yet');

  const env = parseEnv(o.env);
  if (o.resetSystemLocale !== false) for (const v of LOCALE_VARS) env[v] ??= 'C';
  const runEnv: Record<string, string> = {};
  if (!o.cleanEnv) for (const [k, v] of Object.entries(process.env)) if (v !== undefined) runEnv[k] = v;
  if (runas) Object.assign(runEnv, runas.env);
  Object.assign(runEnv, env);
  if (o.prependPath) runEnv.PATH = `${o.prependPath}:${runEnv.PATH ?? ''}`;
  if (!('NOTIFY_SOCKET' in env)) delete runEnv.NOTIFY_SOCKET;

  let umask: string | undefined;
  if (o.umask !== undefined && o.umask !== null) {
    const raw = pyStr(o.umask).replace(/^0+/, '');
    if (raw === '') throw new SALT_ERR_EXEC_COMMAND('Zero umask is not allowed.');
    if (!/^[0-7]+$/.test(raw)) throw new SALT_ERR_EXEC_COMMAND(`Invalid umask: '${pyStr(o.umask)}'`);
    umask = raw;
  }

  if (!path.isAbsolute(cwd) || !isDirectory(cwd)) {
    throw new SALT_ERR_EXEC_COMMAND(`Specified cwd '${cwd}' either not absolute or does not exist`);
  }

  // What Salt hands to Popen: a string for a shell, else an argv list.
  let command: string | string[];
  if (Array.isArray(cmd)) command = cmd.map(pyStr);
  else if (o.pythonShell) command = pyStr(cmd);
  else command = shlexSplit(pyStr(cmd));

  let successRetcodes = [0];
  if (o.successRetcodes !== undefined && o.successRetcodes !== null) {
    successRetcodes = splitInput(o.successRetcodes).map((v) => {
      const n = typeof v === 'number' ? v : Number(pyStr(v).trim());
      if (!Number.isInteger(n) || pyStr(v).trim() === '') {
        throw new SALT_ERR_INVOCATION('success_retcodes must be a list of integers');
      }
      return n;
    });
  }
  const successStdout = o.successStdout == null ? [] : splitInput(o.successStdout).map(pyStr);
  const successStderr = o.successStderr == null ? [] : splitInput(o.successStderr).map(pyStr);

  let timeoutMs: number | undefined;
  const timeout = o.timeout;
  if (timeout !== undefined && timeout !== null && timeout !== 0 && timeout !== false && timeout !== '') {
    const n =
      typeof timeout === 'number' ? timeout : typeof timeout === 'object' ? Number(timeout) : Number.NaN;
    if (
      typeof timeout === 'string' ||
      typeof timeout === 'bigint' ||
      Number.isNaN(n) ||
      Array.isArray(timeout)
    ) {
      throw new SALT_ERR_INVOCATION(`Error: timeout ${pyStr(timeout)} must be a number`);
    }
    timeoutMs = timeout === true ? 1000 : n * 1000;
  }

  let stdin: Buffer | null = null;
  if (!bg && o.stdin !== undefined && o.stdin !== null) {
    let text = pyStr(o.stdin);
    if (!kwargs.stdin_raw_newlines) text = text.replaceAll('\\n', '\n');
    stdin = Buffer.from(text, 'utf8');
  }

  let argv: string[];
  if (o.pythonShell) {
    const shellBin = o.shell || '/bin/sh';
    argv = typeof command === 'string' ? [shellBin, '-c', command] : [shellBin, '-c', ...command];
  } else {
    argv = typeof command === 'string' ? [command] : command;
  }
  const context = {
    cwd,
    shell: o.pythonShell,
    stdin: stdin === null ? null : pyStr(o.stdin),
    timeout: timeout ?? null,
    bg,
  };
  const program = argv[0];
  if (program === undefined) throw runError(command, context, 'ENOENT', '');
  if (!o.pythonShell) {
    const problem = execProblem(program, cwd, runEnv.PATH);
    if (problem) throw runError(command, context, problem, program);
  }
  // Merge stderr into stdout at the fd level (ordering as with Salt's single pipe) and apply
  // the umask, through a small /bin/sh that execs the real command.
  const merge = o.redirectStderr === true && !bg;
  if (merge || umask !== undefined) {
    const prefix = umask !== undefined ? `umask ${umask} || exit 1; ` : '';
    argv = ['/bin/sh', '-c', `${prefix}exec "$@"${merge ? ' 2>&1' : ''}`, 'sh', ...argv];
  }
  if (runas) argv = [...runas.prefix, ...argv];
  const display = typeof command === 'string' ? command : pyRepr(command);
  const logName =
    typeof command === 'string' ? (command.trim().split(/\s+/)[0] ?? '') : (command[0] ?? '').trim();
  ctx.log.info({ cmd: logName, cwd }, `Executing command '${logName}' in directory '${cwd}'`);

  if (bg) {
    let pid: number;
    try {
      pid = await spawnDetached({ argv, cwd, env: runEnv });
    } catch (err) {
      throw runError(command, context, (err as NodeJS.ErrnoException).code ?? 'ENOENT', program);
    }
    return { ret: { pid, retcode: null, stdout: '', stderr: '' }, jobRetcode: 0 };
  }

  const cap = outputCap(ctx.opts);
  let res: Awaited<ReturnType<typeof runProcess>>;
  try {
    res = await runProcess({
      argv,
      cwd,
      env: runEnv,
      stdin,
      signal: ctx.signal,
      maxBytes: cap,
      ...(timeoutMs ? { timeoutMs } : {}),
    });
  } catch (err) {
    throw runError(command, context, (err as NodeJS.ErrnoException).code ?? 'ENOENT', program);
  }
  if (res.aborted) throw abortError(ctx.signal, `command ${display}`);
  if (res.timedOut) {
    const msg = `${pyStr(command)} : Timed out after ${pyStr(timeout)} seconds`;
    return { ret: { pid: res.pid, retcode: 1, stdout: msg, stderr: '' }, jobRetcode: undefined };
  }
  const encoding = o.outputEncoding || 'utf-8';
  let stdout = decode(ctx, res.stdout, encoding, 'stdout', display, res.truncated.stdout);
  let stderr = decode(ctx, res.stderr, encoding, 'stderr', display, res.truncated.stderr);
  if (o.rstrip !== false) {
    stdout = stdout.trimEnd();
    stderr = stderr.trimEnd();
  }
  let retcode = res.returncode ?? 1;
  if (successRetcodes.includes(retcode)) retcode = 0;
  if (successStdout.some((s) => stdout.includes(s)) || successStderr.some((s) => stderr.includes(s)))
    retcode = 0;
  if (!ignoreRetcode && retcode !== 0) {
    ctx.log.error({ cmd: logName, retcode }, `Command '${logName}' failed with return code: ${retcode}`);
  }
  // after the success_stdout/_stderr checks: they look at the command's output, not the marker
  const warnings: string[] = [];
  const mark = (stream: 'stdout' | 'stderr', text: string): string => {
    if (!res.truncated[stream]) return text;
    const notice = trimmedNotice(stream, cap, res.dropped[stream]);
    warnings.push(notice);
    ctx.log.warn({ cmd: display, max_cmd_output_size: cap }, notice);
    return withTrimmedMarker(text, notice);
  };
  stdout = mark('stdout', stdout);
  stderr = mark('stderr', stderr);
  const ret: CmdResult = { pid: res.pid, retcode, stdout, stderr };
  if (warnings.length > 0) ret.warnings = warnings;
  return { ret, jobRetcode: ignoreRetcode ? 0 : retcode };
}
