/**
 * How Salt's `pip` module finds and runs pip (`_get_pip_bin`): `bin_env` is a virtualenv
 * (its `python -m pip`), a python program, or a pip program; without it, the minion's
 * `python3 -m pip` (Salt uses the Python it runs on). Runs pip as argv through `cmd.run_all`
 * with `VIRTUAL_ENV` set for a virtualenv, and caches its version per `bin_env`.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { which } from './_which.js';

export type RunAll = { pid?: number; retcode: number; stdout: string; stderr: string };

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDir = (p: string): boolean => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};
const executable = (p: string): boolean => {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** The argv that runs pip for `binEnv`. */
export function pipBin(binEnv: string | null | undefined): string[] {
  if (!binEnv) return [which('python3') ?? 'python3', '-m', 'pip'];
  if (isDir(binEnv)) {
    for (const dir of [binEnv, path.join(binEnv, 'bin'), path.join(binEnv, 'Scripts')]) {
      const py = path.join(dir, 'python');
      if (isFile(py) && executable(py)) return [path.normalize(py), '-m', 'pip'];
    }
    throw new SALT_ERR_EXEC_COMMAND(`Could not find a pip binary in virtualenv ${binEnv}`);
  }
  if (executable(binEnv)) {
    if (!isFile(binEnv)) throw new SALT_ERR_EXEC_COMMAND(`Could not find a pip binary within ${binEnv}`);
    return path.basename(binEnv).includes('python')
      ? [path.normalize(binEnv), '-m', 'pip']
      : [path.normalize(binEnv)];
  }
  throw new SALT_ERR_EXEC_COMMAND(`Access denied to ${binEnv}, could not find a pip binary`);
}

export interface PipCall {
  bin_env?: string | null;
  user?: string | null;
  cwd?: string | null;
  env_vars?: Record<string, unknown> | null;
  /** Extra keywords for cmd.run_all (the `**kwargs` of freeze/list), over tsalt's own. */
  cmd_kwargs?: Readonly<Record<string, unknown>>;
}

/** Runs `pip <args>` for `a`; the cmd.run_all result. */
export async function runPip(
  ctx: ExecContext,
  args: readonly string[],
  a: PipCall,
  more: Record<string, unknown> = {},
): Promise<RunAll> {
  const env: Record<string, string> = {};
  if (a.env_vars) for (const [k, v] of Object.entries(a.env_vars)) env[k] = String(v);
  if (a.bin_env && isDir(a.bin_env)) env.VIRTUAL_ENV = a.bin_env;
  const kw: Record<string, unknown> = {
    python_shell: false,
    ignore_retcode: true,
    runas: a.user ?? null,
    ...more,
    ...a.cmd_kwargs,
  };
  if (a.cwd) kw.cwd = a.cwd;
  if (Object.keys(env).length > 0) kw.env = env;
  return (await ctx.call('cmd.run_all', [[...pipBin(a.bin_env), ...args]], kw)) as RunAll;
}

/** Salt's `pip.version`: the version pip reports, cached per `bin_env`; null when it prints none. */
export async function pipVersion(ctx: ExecContext, a: PipCall): Promise<string | null> {
  const key = a.bin_env ? `pip.version.${a.bin_env}` : 'pip.version';
  if (ctx.cache.has(key)) return ctx.cache.get(key) as string | null;
  const r = await runPip(ctx, ['--version'], { bin_env: a.bin_env, user: a.user, cwd: a.cwd });
  if (r.retcode) throw new SALT_ERR_EXEC_COMMAND('Could not find a `pip` binary');
  const v = /^pip (\S+)/.exec(r.stdout)?.[1] ?? null;
  ctx.cache.set(key, v);
  return v;
}

/** Forgets the cached version after pip changed an environment (Salt's `_clear_context`). */
export function forgetVersion(ctx: ExecContext, binEnv: string | null | undefined): void {
  ctx.cache.delete(binEnv ? `pip.version.${binEnv}` : 'pip.version');
}

/** A comma string or a list as a list of trimmed strings. */
export function listArg(v: unknown): string[] {
  if (v === undefined || v === null || v === '' || v === false) return [];
  return Array.isArray(v)
    ? v.map((x) => String(x))
    : String(v)
        .split(',')
        .map((s) => s.trim());
}
