/**
 * `file.directory` (Salt's `salt/states/file.py` `directory`, `_check_directory`,
 * `_check_dir_meta`, `_clean_dir`): a directory with owner and mode, optionally applied
 * recursively (`recurse: [user, group, mode, ignore_files, ignore_dirs, silent]`) and cleaned of
 * what no required state manages (`clean`, `exclude_pat`).
 */
import type { Dirent } from 'node:fs';
import { mkdir, opendir, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import type { z as Zod } from 'zod';
import { makeParents } from '../modules/_file-manage.js';
import { checkPerms, checkUser } from '../modules/_file-perms.js';
import { fileStats, isDir, isFile, isLink, normalizeMode } from '../modules/_file-stat.js';
import { splitEntries } from '../modules/_file-walk.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, includeExclude, newRet, type Pat } from './_file-common.js';

type Owner = string | number | null | undefined;

/** `os.walk` limited to `maxDepth` levels: `[root, dirs, files]` top-down (symlinked dirs listed as dirs, not entered). */
export async function walk(
  top: string,
  maxDepth?: number | null,
): Promise<Array<[string, string[], string[]]>> {
  const out: Array<[string, string[], string[]]> = [];
  const visit = async (dir: string, depth: number) => {
    // the directory's own order, as os.walk (Node's readdir sorts)
    const entries: Dirent[] = [];
    try {
      for await (const e of await opendir(dir)) entries.push(e);
    } catch {
      // unreadable or gone: nothing under it, as os.walk's onerror=None
    }
    const [dirs, files] = await splitEntries(dir, entries);
    out.push([dir, dirs, files]);
    if (maxDepth !== undefined && maxDepth !== null && depth >= maxDepth) return;
    for (const d of dirs) if (!(await isLink(join(dir, d)))) await visit(join(dir, d), depth + 1);
  };
  await visit(top, 0);
  return out;
}

/** Salt's `_get_recurse_set`. */
function recurseSet(recurse: unknown): Set<string> {
  if (!recurse) return new Set();
  if (!Array.isArray(recurse)) throw new TypeError('"recurse" must be formed as a list of strings');
  const set = new Set(recurse.map(String));
  const allowed = ['user', 'group', 'mode', 'ignore_files', 'ignore_dirs', 'silent'];
  for (const x of set)
    if (!allowed.includes(x))
      throw new TypeError(`Types for "recurse" limited to ${allowed.map((a) => `"${a}"`).join(', ')}.`);
  if (set.has('ignore_files') && set.has('ignore_dirs'))
    throw new TypeError(
      'Must not specify "recurse" options "ignore_files" and "ignore_dirs" at the same time.',
    );
  return set;
}

async function dirMeta(
  name: string,
  user: Owner,
  group: Owner,
  mode: string | null,
  follow: boolean,
): Promise<Record<string, unknown>> {
  const s = await fileStats(name, null, follow);
  if (!s) return { directory: 'new' };
  const ch: Record<string, unknown> = {};
  if (user !== null && user !== undefined && user !== s.user && user !== s.uid) ch.user = user;
  if (group !== null && group !== undefined && group !== s.group && group !== s.gid) ch.group = group;
  if (mode !== null && mode !== s.mode && (follow || s.type !== 'link')) ch.mode = mode;
  return ch;
}

/** Paths named by `require: [{file: /path}]` that a clean keeps, with their parents. */
export function keepFromRequire(require: unknown, root: string): Set<string> {
  const keep = new Set<string>();
  if (!Array.isArray(require)) return keep;
  for (const comp of require) {
    const f = comp && typeof comp === 'object' ? (comp as Record<string, unknown>).file : undefined;
    if (typeof f !== 'string' || !isAbsolute(f)) continue;
    for (let p = f; p.startsWith(`${root}/`) && p !== root; p = dirname(p)) keep.add(p);
  }
  return keep;
}

async function cleanList(
  root: string,
  keep: Set<string>,
  excludePat: Pat,
  walked: Array<[string, string[], string[]]>,
  order: 'files-first' | 'dirs-first',
): Promise<string[]> {
  const out: string[] = [];
  for (const [r, dirs, files] of walked) {
    for (const n of order === 'files-first' ? [...files, ...dirs] : [...dirs, ...files]) {
      const p = join(r, n);
      if (keep.has(p)) continue;
      const rel = relative(root, p);
      if (excludePat && !includeExclude(rel, null, excludePat)) continue;
      if ([...keep].some((k) => k.startsWith(`${p}/`))) continue;
      out.push(p);
    }
  }
  return out;
}

const owner = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();

export const directory = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      user: owner(z),
      group: owner(z),
      recurse: z.unknown().optional(),
      max_depth: z.number().nullish(),
      dir_mode: z.union([z.string(), z.number()]).nullish(),
      file_mode: z.union([z.string(), z.number()]).nullish(),
      makedirs: z.boolean().default(false),
      clean: z.boolean().default(false),
      require: z.unknown().optional(),
      exclude_pat: z.union([z.string(), z.array(z.string())]).nullish(),
      follow_symlinks: z.boolean().default(false),
      force: z.boolean().default(false),
      backupname: z.string().nullish(),
      allow_symlink: z.boolean().default(true),
      children_only: z.boolean().default(false),
    }),
  varkw: true,
  doc: 'Ensure that a named directory is present and has the right perms.',
  run: async (ctx, a, extra) => {
    let name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.directory');
    if (name.endsWith('/') && name !== '/') name = name.slice(0, -1);
    if (a.max_depth !== null && a.max_depth !== undefined && a.clean)
      return fail(ret, 'Cannot specify both max_depth and clean');
    let dirModeIn = a.dir_mode;
    if ('mode' in extra.kwargs && !dirModeIn) dirModeIn = extra.kwargs.mode as string;
    const dirMode = normalizeMode(dirModeIn);
    const fileModeAll = normalizeMode(a.file_mode || dirModeIn);
    const u = checkUser(a.user, a.group, ctx.test);
    if (u) return fail(ret, u);
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    const link = await isLink(name);
    if (((await isFile(name)) && !link) || (!a.allow_symlink && link) || (a.force && link)) {
      if (a.force) {
        const what = link ? 'Symlink' : 'File';
        if (ctx.test) ret.changes.forced = `${what} would be forcibly replaced`;
        else {
          await rm(name, { force: true });
          ret.changes.forced = `${what} was forcibly replaced`;
        }
      } else if (await isFile(name)) return fail(ret, `Specified location ${name} exists and is a file`);
      else if (link) return fail(ret, `Specified location ${name} exists and is a symlink`);
    }
    // predict
    let rset: Set<string>;
    try {
      rset = recurseSet(a.recurse);
    } catch (err) {
      return fail(ret, (err as Error).message);
    }
    const exists = await isDir(name);
    const walked = exists && (rset.size || a.clean) ? await walk(name, a.max_depth) : [];
    const tchanges: Record<string, Record<string, unknown>> = {};
    if (rset.size) {
      const ru = rset.has('user') ? a.user : null;
      const rg = rset.has('group') ? a.group : null;
      const rdm = rset.has('mode') ? dirMode : null;
      const rfm = rset.has('mode') ? fileModeAll : null;
      for (const [root, dirs, files] of walked) {
        if (!rset.has('ignore_files'))
          for (const f of files) {
            const p = join(root, f);
            const s = await fileStats(p, null, a.follow_symlinks);
            if (!s) continue;
            const ch: Record<string, unknown> = {};
            if (ru !== null && ru !== undefined && ru !== s.user && ru !== s.uid) ch.user = ru;
            if (rg !== null && rg !== undefined && rg !== s.group && rg !== s.gid) ch.group = rg;
            if (rfm !== null && rfm !== s.mode && (a.follow_symlinks || s.type !== 'link')) ch.mode = rfm;
            if (Object.keys(ch).length) tchanges[p] = ch;
          }
        if (!rset.has('ignore_dirs'))
          for (const d of dirs) {
            const ch = await dirMeta(join(root, d), ru, rg, rdm, a.follow_symlinks);
            if (Object.keys(ch).length) tchanges[join(root, d)] = ch;
          }
      }
    }
    if (!a.children_only) {
      const ch = await dirMeta(name, a.user, a.group, dirMode, a.follow_symlinks);
      if (Object.keys(ch).length) tchanges[name] = ch;
    }
    const keep = keepFromRequire(a.require, name);
    if (a.clean)
      for (const p of await cleanList(name, keep, a.exclude_pat, walked, 'files-first'))
        tchanges[p] = { removed: 'Removed due to clean' };
    if (!exists) tchanges[name] = { directory: 'new' };
    let tresult: boolean | null = true;
    let tcomment = `The directory ${name} is in the correct state`;
    if (Object.keys(tchanges).length) {
      tresult = null;
      tcomment = 'The following files will be changed:\n';
      for (const [p, ch] of Object.entries(tchanges))
        for (const [k, v] of Object.entries(ch)) tcomment += `${p}: ${k} - ${v}\n`;
    }
    Object.assign(ret.changes, tchanges);
    if (ctx.test) {
      ret.result = tresult;
      ret.comment = tcomment;
      return ret;
    }
    if (!Object.keys(ret.changes).length) {
      ret.result = tresult;
      ret.comment = tcomment;
      return ret;
    }
    if (!exists) {
      if (!(await isDir(dirname(name)))) {
        if (!a.makedirs) return fail(ret, `No directory to create ${name} in`);
        await makeParents(name, a.user, a.group, dirMode);
      }
      await mkdir(name);
      await checkPerms(name, null, a.user, a.group, dirMode, true, false);
      if (!(await isDir(name))) return fail(ret, `Failed to create directory ${name}`);
      ret.changes[name] = { directory: 'new' };
      return ret;
    }
    let out = ret;
    if (!a.children_only)
      [out] = await checkPerms(name, out, a.user, a.group, dirMode, a.follow_symlinks, false);
    if (rset.size && out.result !== false) {
      const ru = rset.has('user') ? a.user : null;
      const rg = rset.has('group') ? a.group : null;
      const rdm = rset.has('mode') ? dirMode : null;
      const rfm = rset.has('mode') ? fileModeAll : null;
      if (rset.has('silent')) out.changes = { recursion: 'Changes silenced' };
      for (const [root, dirs, files] of walked) {
        if (!rset.has('ignore_files'))
          for (const f of files)
            [out] = await checkPerms(join(root, f), out, ru, rg, rfm, a.follow_symlinks, false).catch(() => [
              out,
            ]);
        if (!rset.has('ignore_dirs'))
          for (const d of dirs)
            [out] = await checkPerms(join(root, d), out, ru, rg, rdm, a.follow_symlinks, false).catch(() => [
              out,
            ]);
      }
    }
    if (a.clean) {
      // Salt's walk is top-down and does not enter a folder it has just removed
      const removed: string[] = [];
      for (const p of await cleanList(name, keep, a.exclude_pat, await walk(name), 'dirs-first')) {
        if (removed.some((r) => p.startsWith(`${r}/`))) continue;
        await rm(p, { recursive: true, force: true });
        removed.push(p);
      }
      if (removed.length) {
        out.changes.removed = removed;
        out.comment = `Files cleaned from directory ${name}`;
      }
    }
    if (!out.comment) {
      if (a.children_only) out.comment = `Directory ${name}/* updated`;
      else if (Object.keys(out.changes).length) out.comment = `Directory ${name} updated`;
    }
    if (!Object.keys(out.changes).length && out.result) {
      const orig = out.comment;
      out.comment = `Directory ${name} is in the correct state${orig ? `\n${orig}` : ''}`;
    }
    return out;
  },
});
