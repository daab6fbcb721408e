/**
 * Salt's `file.recurse` state (`salt/states/file.py` `recurse`, `_gen_recurse_managed_files`,
 * `_clean_dir`): a `salt://` folder copied under `name`, each file through `file.managed`
 * (template, owner, `file_mode`), each folder through `file.directory` (`dir_mode`), symlinks
 * kept with `keep_symlinks`, `include_pat`/`exclude_pat` (globs, or regexes with `E@`),
 * `maxdepth`, `include_empty`, and `clean` removing what the source does not hold. Salt walks
 * Python sets, so its order varies run to run; here files and folders go in sorted order.
 */
import { readdir, rm } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative } from 'node:path';
import type { z as Zod } from 'zod';
import { checkUser } from '../modules/_file-perms.js';
import { fileClient } from '../modules/_file-source.js';
import { isDir, lexists, normalizeMode } from '../modules/_file-stat.js';
import { defineState, type StateContext, type StateReturn } from '../plugins/states/index.js';
import { expandUser, fail, includeExclude, newRet, type Pat, strList } from './_file-common.js';
import { keepFromRequire } from './_file-directory.js';

/** Salt's `_is_valid_relpath`: no `..` part, and no deeper than `maxdepth`. */
function validRel(rel: string, maxdepth: number | null | undefined): boolean {
  if (`/${rel}/`.includes('/../')) return false;
  if (maxdepth !== null && maxdepth !== undefined) {
    const depth = rel.replace(/^\/+|\/+$/g, '').split('/').length - 1;
    if (depth > maxdepth) return false;
  }
  return true;
}

/** `salt://path?saltenv=env` → `[path, env]`. */
function parseUrl(url: string, fallback: string): [string, string] {
  const body = url.replace(/^salt:\/\//, '');
  const q = body.indexOf('?saltenv=');
  return q < 0 ? [body, fallback] : [body.slice(0, q), body.slice(q + 9)];
}

interface Plan {
  files: Array<[string, string]>;
  dirs: string[];
  links: Array<[string, string]>;
  keep: Set<string>;
}

interface PlanArgs {
  name: string;
  srcpath: string;
  senv: string;
  keepSymlinks: boolean;
  include: Pat;
  exclude: Pat;
  maxdepth: number | null | undefined;
  includeEmpty: boolean;
}

/** Salt's `_gen_recurse_managed_files`: files (dest, salt:// source), folders, symlinks, paths to keep. */
async function plan(ctx: StateContext, p: PlanArgs): Promise<Plan> {
  const fc = fileClient(ctx);
  const prefix = p.srcpath.endsWith('/') ? p.srcpath : `${p.srcpath}/`;
  const out: Plan = { files: [], dirs: [], links: [], keep: new Set() };
  const vdir = new Set<string>();
  // os.path.join without normalising: the source folder itself is `<name>/.`, as Salt has it
  const full = (rel: string) => `${p.name.replace(/\/+$/, '')}/${posix.normalize(rel)}`;
  const ok = (rel: string) => validRel(rel, p.maxdepth) && includeExclude(rel, p.include, p.exclude);
  let fns = (await fc.fileList(p.senv, prefix)).filter((f) => f.startsWith(prefix));
  const symlinks = p.keepSymlinks ? await fc.symlinkList(p.senv, prefix) : {};
  for (const [lname, target] of Object.entries(symlinks)) {
    const rel = posix.relative(prefix, lname);
    if (!ok(rel)) continue;
    fns = fns.filter((f) => !f.startsWith(`${lname}/`));
    out.links.push([rel, String(target)]);
    out.keep.add(full(rel));
  }
  for (const k of out.keep) vdir.add(k);
  for (const fn of fns) {
    if (!fn.trim()) continue;
    const rel = posix.relative(prefix, fn);
    if (!ok(rel)) continue;
    const dest = full(rel);
    out.keep.add(dest);
    if (!vdir.has(dirname(dest))) {
      vdir.add(dirname(dest));
      out.dirs.push(dirname(dest));
    }
    out.files.push([dest, p.senv === 'base' ? `salt://${fn}` : `salt://${fn}?saltenv=${p.senv}`]);
  }
  if (p.includeEmpty) {
    for (const mdir of await fc.dirList(p.senv, prefix)) {
      const rel = posix.relative(prefix, mdir);
      if (!ok(rel)) continue;
      if (Object.keys(symlinks).some((l) => mdir.startsWith(`${l}/`))) continue;
      if (!out.dirs.includes(full(rel))) out.dirs.push(full(rel));
      out.keep.add(full(rel));
    }
  }
  // sorted, with the files a kept symlink stands on last (the link's target must exist first)
  const linked = new Set(out.links.map(([rel]) => full(rel)));
  const rank = (f: [string, string]) => `${linked.has(f[0]) ? 1 : 0}${f[0]}`;
  out.files.sort((a, b) => (rank(a) < rank(b) ? -1 : 1));
  out.dirs.sort();
  return out;
}

/** Salt's `_clean_dir`: what under `root` is neither kept nor a parent of a kept path (nor excluded). */
async function cleanDir(root: string, keep: Set<string>, exclude: Pat, test: boolean): Promise<string[]> {
  const real = new Set<string>([root]);
  for (const k of keep) {
    if (!isAbsolute(k)) continue;
    for (let p = k; ; p = dirname(p)) {
      real.add(p);
      if (p === dirname(p)) break;
    }
  }
  const removed: string[] = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const dirs = entries.filter((e) => e.isDirectory()).map((e) => e.name);
    const files = entries.filter((e) => !e.isDirectory()).map((e) => e.name);
    for (const n of [...dirs, ...files]) {
      const p = join(dir, n);
      if (real.has(p) || !includeExclude(relative(root, p), null, exclude)) continue;
      removed.push(p);
      if (!test) await rm(p, { recursive: true, force: true });
    }
    for (const d of dirs) await visit(join(dir, d));
  };
  await visit(root);
  return removed.sort();
}

const owner = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();
const mode = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();

export const recurse = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source: z.union([z.string(), z.array(z.string())]),
      keep_source: z.boolean().default(true),
      clean: z.boolean().default(false),
      require: z.unknown().optional(),
      user: owner(z),
      group: owner(z),
      dir_mode: mode(z),
      file_mode: mode(z),
      sym_mode: mode(z),
      template: z.string().nullish(),
      context: z.record(z.string(), z.unknown()).nullish(),
      replace: z.boolean().default(true),
      defaults: z.record(z.string(), z.unknown()).nullish(),
      include_empty: z.boolean().default(false),
      backup: z.union([z.string(), z.literal(false)]).nullish(),
      include_pat: z.union([z.string(), z.array(z.string())]).nullish(),
      exclude_pat: z.union([z.string(), z.array(z.string())]).nullish(),
      maxdepth: z.number().int().nullish(),
      keep_symlinks: z.boolean().default(false),
      force_symlinks: z.boolean().default(false),
    }),
  varkw: true,
  doc: 'Recurse through a subdirectory on the master and copy said subdirectory over to the specified path.',
  run: async (ctx, a, extra) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    const user = a.user ?? (extra.kwargs.owner as string | undefined) ?? null;
    const comments = new Map<string, string[]>();
    if ('mode' in extra.kwargs)
      return fail(ret, "'mode' is not allowed in 'file.recurse'. Please use 'file_mode' and 'dir_mode'.");
    const dirMode = normalizeMode(a.dir_mode);
    const keepMode = typeof a.file_mode === 'string' && a.file_mode.toLowerCase() === 'keep';
    const fileMode = keepMode ? null : normalizeMode(a.file_mode);
    const u = checkUser(user, a.group, ctx.test);
    if (u) return fail(ret, u);
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    const sources = strList(a.source).map((s) => s.replace(/\/+$/, ''));
    for (const s of sources)
      if (!s.startsWith('salt://')) return fail(ret, `Invalid source '${s}' (must be a salt:// URI)`);
    const fc = fileClient(ctx);
    let found: [string, string] | undefined;
    for (const s of sources) {
      const [path, env] = parseUrl(s, ctx.saltenv);
      const all = [...(await fc.dirList(env)), ...(await fc.fileList(env))];
      if (all.includes(path)) {
        found = [path, env];
        break;
      }
    }
    if (!found) return fail(ret, 'Recurse failed: none of the specified sources were found');
    if (!(await fc.dirList(found[1], `${found[0]}/`)).includes(found[0]))
      return fail(
        ret,
        `The directory '${found[0]}' does not exist on the salt fileserver in saltenv '${found[1]}'`,
      );
    const [srcpath, senv] = found;
    if (!(await isDir(name))) {
      if (await lexists(name)) return fail(ret, `The path ${name} exists and is not a directory`);
      if (!ctx.test) await ctx.call('file.makedirs_perms', [], { name, user, group: a.group, mode: dirMode });
    }
    const merge = (path: string, r: StateReturn) => {
      if (r.result === false || ret.result === true) ret.result = r.result;
      if (r.result !== true && r.comment) {
        const list = comments.get(path) ?? [];
        comments.set(path, list);
        if (Array.isArray(r.comment)) list.push(...r.comment.map(String));
        else list.push(String(r.comment));
      }
      if (Object.keys(r.changes).length) ret.changes[path] = r.changes;
    };
    const replaced = async (path: string, when: boolean, testMsg: string, diff: string) => {
      if (!a.clean || !when) return false;
      const r = newRet(name);
      if (ctx.test) {
        merge(path, { ...r, result: null, comment: testMsg });
        return true;
      }
      await rm(path, { recursive: true, force: true });
      merge(path, { ...r, changes: { diff } });
      return false;
    };
    const p = await plan(ctx, {
      name,
      srcpath,
      senv,
      keepSymlinks: a.keep_symlinks,
      include: a.include_pat,
      exclude: a.exclude_pat,
      maxdepth: a.maxdepth,
      includeEmpty: a.include_empty,
    });
    for (const [rel, target] of p.links) {
      const path = join(name, rel);
      merge(
        path,
        await ctx.state('file.symlink', {
          name: path,
          target,
          makedirs: true,
          force: a.force_symlinks,
          user,
          group: a.group,
          mode: a.sym_mode,
        }),
      );
    }
    for (const dir of p.dirs) {
      if (
        await replaced(
          dir,
          (await lexists(dir)) && !(await isDir(dir)),
          `Replacing ${dir} with a directory`,
          'Replaced file with a directory',
        )
      )
        continue;
      merge(
        dir,
        await ctx.state('file.directory', {
          name: dir,
          user,
          group: a.group,
          recurse: [],
          dir_mode: dirMode,
          file_mode: null,
          makedirs: true,
          clean: false,
        }),
      );
    }
    const passed = Object.fromEntries(
      Object.entries(extra.kwargs).filter(([k]) => k !== 'mode' && k !== 'makedirs' && k !== 'owner'),
    );
    for (const [dest, src] of p.files) {
      if (
        await replaced(
          dest,
          a.replace && (await isDir(dest)),
          `Replacing directory ${dest} with a file`,
          'Replaced directory with a new file',
        )
      )
        continue;
      merge(
        dest,
        await ctx.state('file.managed', {
          ...passed,
          name: dest,
          source: src,
          keep_source: a.keep_source,
          user,
          group: a.group,
          mode: keepMode ? 'keep' : fileMode,
          attrs: null,
          template: a.template ?? null,
          makedirs: true,
          replace: a.replace,
          context: a.context ?? null,
          defaults: a.defaults ?? null,
          backup: a.backup || '',
        }),
      );
    }
    if (a.clean) {
      for (const k of keepFromRequire(a.require, name)) p.keep.add(k);
      const removed = await cleanDir(name, p.keep, a.exclude_pat, ctx.test);
      if (removed.length) {
        if (ctx.test) {
          if (ret.result) ret.result = null;
          comments.set('removed', [...(comments.get('removed') ?? []), ...removed]);
        } else ret.changes.removed = removed;
      }
    }
    ret.comment = [...comments]
      .map(([k, v]) => `\n#### ${k} ####\n${v.join('\n')}`)
      .join('\n')
      .trim();
    if (!ret.comment) ret.comment = `Recursively updated ${name}`;
    if (!Object.keys(ret.changes).length && ret.result)
      ret.comment = `The directory ${name} is in the correct state`;
    return ret;
  },
});
