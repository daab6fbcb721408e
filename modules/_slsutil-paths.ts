/**
 * Salt's `slsutil.file_exists`, `dir_exists`, `path_exists` and `findup`: whether a path is in
 * the state tree (the file server's `cp.list_master` / `cp.list_master_dirs`, read once per
 * saltenv and kept in the job's `__context__`), and the nearest of some names up a path's
 * ancestry.
 */
import { posix } from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';

async function listing(ctx: ExecContext, fun: 'cp.list_master' | 'cp.list_master_dirs', saltenv: string) {
  const key = `slsutil:${fun}:${saltenv}`;
  let list = ctx.cache.get(key) as Set<string> | undefined;
  if (!list) {
    const got = await ctx.call(fun, [saltenv]);
    list = new Set(Array.isArray(got) ? got.map(String) : []);
    ctx.cache.set(key, list);
  }
  return list;
}

export const fileExists = async (ctx: ExecContext, path: string, saltenv: string): Promise<boolean> =>
  (await listing(ctx, 'cp.list_master', saltenv)).has(path);

export const dirExists = async (ctx: ExecContext, path: string, saltenv: string): Promise<boolean> =>
  (await listing(ctx, 'cp.list_master_dirs', saltenv)).has(path);

export const pathExists = async (ctx: ExecContext, path: string, saltenv: string): Promise<boolean> =>
  (await fileExists(ctx, path, saltenv)) || (await dirExists(ctx, path, saltenv));

/** Salt's `findup`: `startpath/<name>`, then its parent's, up to the root of the state tree. */
export async function findup(
  ctx: ExecContext,
  startpath: string | null | undefined,
  filenames: unknown,
  saltenv: string,
): Promise<string> {
  let start = startpath ? posix.normalize(startpath).replace(/(.)\/+$/, '$1') : '';
  if (start && !(await pathExists(ctx, start, saltenv)))
    throw new SALT_ERR_INVOCATION(`Starting path not found in the state tree: ${start}`);
  const names = typeof filenames === 'string' ? [filenames] : filenames;
  if (!Array.isArray(names))
    throw new SALT_ERR_INVOCATION('Filenames argument must be a string or list of strings');
  for (;;) {
    for (const name of names) {
      const full = start ? posix.join(start, String(name)) : String(name);
      if (await pathExists(ctx, full, saltenv)) return full;
    }
    if (!start) throw new SALT_ERR_EXEC_COMMAND('File pattern(s) not found in path ancestry');
    start = posix.dirname(start);
    if (start === '.') start = '';
  }
}
