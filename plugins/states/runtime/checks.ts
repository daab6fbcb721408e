/**
 * The global arguments checked before and after a state function (Salt's `_run_check`,
 * `_run_check_onlyif`, `_run_check_unless`, `_run_check_creates` and `_run_check_cmd` in
 * `salt/state.py`): `onlyif`/`unless` run shell commands through `cmd.retcode` or call
 * execution functions (`fun:`, `args`, keywords, `get_return`), `creates` looks for files,
 * `check_cmd` decides success after the state ran.
 */
import { access } from 'node:fs/promises';
import { pyRepr, pyTruthy } from '../../../kernel/util.js';
import type { Low, Run } from './run-state.js';

/** What a check says: `result: true` means the state is not run. */
export interface CheckResult extends Record<string, unknown> {
  result: boolean;
  comment?: unknown;
  skip_watch?: boolean;
}

const CMD_ARGS = ['cwd', 'root', 'runas', 'env', 'prepend_path', 'umask', 'timeout', 'success_retcodes'];

/** The `cmd.retcode` keywords taken from the chunk (Salt's `cmd_opts`, less `cmd_opts_exclude`). */
function cmdOpts(run: Run, low: Low): Record<string, unknown> {
  const exclude = 'cmd_opts_exclude' in low ? [low.cmd_opts_exclude].flat() : [];
  const opts: Record<string, unknown> = {};
  for (const key of CMD_ARGS) {
    if (!exclude.includes(key) && low[key] !== undefined && low[key] !== null) opts[key] = low[key];
  }
  if ('shell' in low && !exclude.includes('shell')) opts.shell = low.shell;
  else if (typeof run.rc.exec.grains.shell === 'string') opts.shell = run.rc.exec.grains.shell;
  return opts;
}

/** The exit code of a shell command; `failed` when cmd.retcode itself failed (Salt's CommandExecutionError). */
async function retcode(
  run: Run,
  cmd: string,
  opts: Record<string, unknown>,
  failed: number,
): Promise<number> {
  try {
    const code = await run.rc.exec.call('cmd.retcode', [cmd], {
      ignore_retcode: true,
      python_shell: true,
      ...opts,
    });
    return typeof code === 'number' ? code : Number(code);
  } catch (err) {
    if (run.rc.exec.signal.aborted) throw err;
    return failed;
  }
}

/** `a:b:0` into a function's return (Salt's `traverse_dict_and_list`). */
function traverse(data: unknown, path: unknown): unknown {
  let cur = data;
  for (const part of String(path).split(':')) {
    if (Array.isArray(cur)) cur = cur[Number(part)];
    else if (cur && typeof cur === 'object') cur = (cur as Record<string, unknown>)[part];
    else return undefined;
  }
  return cur;
}

/** Calls `{fun: 'mod.fn', args: [...], get_return: 'a:b', kw: v}` (Salt's `_run_check_function`). */
async function callFunction(run: Run, entry: Record<string, unknown>): Promise<unknown> {
  const { fun, args, get_return: getReturn, ...kwargs } = entry;
  const result = await run.rc.exec.call(String(fun), Array.isArray(args) ? args : [], kwargs);
  return getReturn ? traverse(result, getReturn) : result;
}

async function checkOnlyif(run: Run, low: Low, opts: Record<string, unknown>): Promise<CheckResult> {
  const ret: CheckResult = { result: false };
  const skip = (): CheckResult =>
    Object.assign(ret, { comment: 'onlyif condition is false', skip_watch: true, result: true });
  for (const entry of [low.onlyif].flat()) {
    if (typeof entry === 'string') {
      const code = await retcode(run, entry, opts, 100);
      if (code !== 0 && ret.result === false) return skip();
      if (code === 0) Object.assign(ret, { comment: 'onlyif condition is true', result: false });
    } else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      if (!('fun' in entry)) {
        ret.comment = `no \`fun\` argument in onlyif: ${pyRepr(entry)}`;
        run.rc.exec.log.warn(String(ret.comment));
        return ret;
      }
      if (!pyTruthy(await callFunction(run, { ...entry }))) return skip();
      Object.assign(ret, { comment: 'onlyif condition is true', result: false });
    } else {
      return Object.assign(ret, { comment: 'onlyif execution failed, bad type passed', result: false });
    }
  }
  return ret;
}

async function checkUnless(run: Run, low: Low, opts: Record<string, unknown>): Promise<CheckResult> {
  const ret: CheckResult = { result: false };
  const skip = (): void => {
    Object.assign(ret, { comment: 'unless condition is true', skip_watch: true, result: true });
  };
  const runIt = (): CheckResult => {
    delete ret.skip_watch;
    return Object.assign(ret, { comment: 'unless condition is false', result: false });
  };
  for (const entry of [low.unless].flat()) {
    if (typeof entry === 'string') {
      if ((await retcode(run, entry, opts, 0)) !== 0) return runIt();
      skip();
    } else if (entry && typeof entry === 'object' && !Array.isArray(entry)) {
      if (!('fun' in entry)) {
        ret.comment = `no \`fun\` argument in unless: ${pyRepr(entry)}`;
        run.rc.exec.log.warn(String(ret.comment));
        return ret;
      }
      if (!pyTruthy(await callFunction(run, { ...entry }))) return runIt();
      skip();
    } else {
      Object.assign(ret, { comment: 'unless condition is false, bad type passed', result: false });
    }
  }
  return ret;
}

async function exists(path: unknown): Promise<boolean> {
  try {
    await access(String(path));
    return true;
  } catch {
    return false;
  }
}

async function checkCreates(low: Low): Promise<CheckResult> {
  const creates = low.creates;
  if (typeof creates === 'string' && (await exists(creates))) {
    return { result: true, comment: `${creates} exists`, skip_watch: true };
  }
  if (Array.isArray(creates) && (await Promise.all(creates.map(exists))).every(Boolean)) {
    return { result: true, comment: 'All files in creates exist', skip_watch: true };
  }
  return { result: false, comment: 'Creates files not found' };
}

/** `onlyif`, `unless` and `creates` together (Salt's `_run_check`): result true skips the state. */
export async function runCheck(run: Run, low: Low): Promise<CheckResult> {
  const ret: CheckResult = { result: false, comment: [] as string[] };
  for (const key of ['__sls__', '__id__', 'name']) ret[key] = low[key] ?? null;
  const comments = ret.comment as unknown[];
  const opts = cmdOpts(run, low);
  if ('onlyif' in low) {
    const r = await checkOnlyif(run, low, opts);
    ret.result = r.result;
    comments.push(r.comment);
    if ('skip_watch' in r) ret.skip_watch = r.skip_watch;
  }
  for (const [key, check] of [
    ['unless', () => checkUnless(run, low, opts)],
    ['creates', () => checkCreates(low)],
  ] as const) {
    if (!(key in low)) continue;
    const r = await check();
    ret.result = r.result || ret.result;
    comments.push(r.comment);
    if (r.skip_watch) ret.skip_watch = true;
  }
  return ret;
}

/** `check_cmd`: every command must exit 0 for the state to count as a success (Salt's `_run_check_cmd`). */
export async function runCheckCmd(run: Run, low: Low): Promise<CheckResult> {
  const ret: CheckResult = { result: false };
  for (const key of ['__sls__', '__id__', 'name']) ret[key] = low[key] ?? null;
  const opts: Record<string, unknown> = {};
  if (typeof run.rc.exec.grains.shell === 'string') opts.shell = run.rc.exec.grains.shell;
  for (const cmd of [low.check_cmd].flat()) {
    const code = await retcode(run, String(cmd), opts, 1);
    if (code === 0 && ret.result === false) {
      Object.assign(ret, { comment: 'check_cmd determined the state succeeded', result: true });
    } else if (code !== 0) {
      return Object.assign(ret, { comment: 'check_cmd determined the state failed', result: false });
    }
  }
  return ret;
}
