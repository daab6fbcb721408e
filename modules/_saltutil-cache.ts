/**
 * The cache functions of Salt's `saltutil` module: `clear_cache` (every file under the minion's
 * `cachedir`), `clear_job_cache` (old job folders of `<cachedir>/minion_jobs`),
 * `find_cached_job` (a job's `return.p` there, written with `cache_jobs`) and `list_extmods`
 * (what the sync functions put in `<cachedir>/extmods`).
 */
import type { Dirent } from 'node:fs';
import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, type ExecContext, SALT_ERR_EXEC_SYNC } from '../kernel/index.js';
import { unpackIpc } from '../kernel/util.js';
import { MANIFEST_NAME } from './_extmods-sync.js';

function cachedir(ctx: ExecContext): string {
  return String(ctx.opts.cachedir ?? '');
}

/** A folder's entries; none when it cannot be read (os.walk skips such folders). */
async function entries(dir: string): Promise<Dirent[]> {
  try {
    return await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** Whether `path` (a symlink) leads to a folder: os.walk lists those as folders and does not enter them. */
async function linksToDir(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Removes every file below `dir` (symlinks not followed), keeping the folders; false at the first failure. */
async function removeFiles(ctx: ExecContext, dir: string): Promise<boolean> {
  for (const e of await entries(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory()) {
      if (!(await removeFiles(ctx, path))) return false;
      continue;
    }
    if (e.isSymbolicLink() && (await linksToDir(path))) continue;
    try {
      await unlink(path);
    } catch (err) {
      ctx.log.error(
        { err: (err as Error).message },
        'Attempt to clear cache with saltutil.clear_cache FAILED',
      );
      return false;
    }
  }
  return true;
}

/** Removes the folders below `dir` last changed before `threshold` (ms), walking into the younger ones. */
async function removeOldDirs(ctx: ExecContext, dir: string, threshold: number): Promise<boolean> {
  for (const e of await entries(dir)) {
    const path = join(dir, e.name);
    if (!e.isDirectory() && !(e.isSymbolicLink() && (await linksToDir(path)))) continue;
    try {
      if ((await stat(path)).mtimeMs < threshold) {
        await rm(path, { recursive: true, force: true });
        continue;
      }
    } catch (err) {
      ctx.log.error(
        { err: (err as Error).message },
        'Attempt to clear cache with saltutil.clear_job_cache FAILED',
      );
      return false;
    }
    if (e.isDirectory() && !(await removeOldDirs(ctx, path, threshold))) return false;
  }
  return true;
}

/** The file stems (up to the first dot) below `dir`, at any depth. */
async function stems(dir: string, into: Set<string>): Promise<Set<string>> {
  for (const e of await entries(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory()) await stems(path, into);
    else if (e.isSymbolicLink() && (await linksToDir(path))) continue;
    else if (e.name !== MANIFEST_NAME) into.add(e.name.split('.')[0]!);
  }
  return into;
}

/** Python's text for a missing path: `[Errno 2] No such file or directory: '<path>'`. */
function missing(path: string): never {
  throw new SALT_ERR_EXEC_SYNC(`[Errno 2] No such file or directory: '${path}'`);
}

async function findCachedJob(ctx: ExecContext, jid: string): Promise<unknown> {
  const jobDir = join(cachedir(ctx), 'minion_jobs', jid);
  const isDir = await stat(jobDir).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (!isDir) {
    return ctx.opts.cache_jobs
      ? `Local jobs cache directory ${jobDir} not found`
      : 'Local jobs cache directory not found; you may need to enable cache_jobs on this minion';
  }
  const path = join(jobDir, 'return.p');
  const buf = await readFile(path).catch(() => missing(path));
  if (buf.length === 0) return null;
  try {
    const data = unpackIpc(buf);
    return typeof data === 'object' && data !== null && !Array.isArray(data) && !(data instanceof Uint8Array)
      ? data
      : null;
  } catch {
    throw new SALT_ERR_EXEC_SYNC(`${path} does not hold a job return`);
  }
}

export const cacheFunctions = {
  clear_cache: defineFunction({
    doc: "Forcibly remove every file in the minion's cache (cachedir); the folders stay. Returns False at the first file that cannot be removed.\n\nCLI Example: salt '*' saltutil.clear_cache",
    run: (ctx) => removeFiles(ctx, cachedir(ctx)),
  }),
  clear_job_cache: defineFunction({
    args: (zod) => zod.object({ hours: zod.coerce.number().default(24) }),
    doc: "Forcibly remove the job cache folders (cachedir/minion_jobs) older than `hours` hours (default 24).\n\nCLI Example: salt '*' saltutil.clear_job_cache hours=12",
    run: (ctx, a) =>
      removeOldDirs(ctx, join(cachedir(ctx), 'minion_jobs'), Date.now() - a.hours * 3600 * 1000),
  }),
  find_cached_job: defineFunction({
    args: (zod) =>
      zod.object({ jid: zod.union([zod.string(), zod.number(), zod.bigint()]).transform(String) }),
    doc: "Return the data of a job this minion ran, from its local job cache (cachedir/minion_jobs, kept with cache_jobs: True), or a message when it is not there.\n\nCLI Example: salt '*' saltutil.find_cached_job <job id>",
    run: (ctx, a) => findCachedJob(ctx, a.jid),
  }),
  list_extmods: defineFunction({
    doc: "List the extension units synced to this minion (cachedir/extmods), by kind: `{modules: [name, ...], ...}`.\n\nCLI Example: salt '*' saltutil.list_extmods",
    run: async (ctx) => {
      const extDir = join(cachedir(ctx), 'extmods');
      const kinds = await readdir(extDir).catch(() => missing(extDir));
      const ret: Record<string, string[]> = {};
      for (const kind of kinds.sort()) ret[kind] = [...(await stems(join(extDir, kind), new Set()))].sort();
      return ret;
    },
  }),
};
