/**
 * Salt's `file.tidied` state (`salt/states/file.py` `tidied`): files (and with `rmdirs`,
 * folders; with `rmlinks`, symlinks) under a folder removed when their name matches, they are
 * old enough (days by atime, mtime or ctime) or big enough (`size`, `10M` and the like), as
 * `age_size_logical_operator` and `age_size_only` combine the two tests.
 */
import { lstat, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { pyRegex } from '../modules/_file-edit.js';
import { isDir } from '../modules/_file-stat.js';
import { walkUp } from '../modules/_file-walk.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, newRet } from './_file-common.js';

/** Salt's `human_to_bytes(size, handle_metric=True)`: `2G`, `30MB`, `64KiB` → bytes; 0 when unreadable. */
export function humanToBytes(size: string | number): number {
  const m = /^([0-9.]*)\s*(.*)$/.exec(String(size).trim());
  const raw = m?.[1] ?? '';
  const unit = (m?.[2] || 'b').toLowerCase();
  const value = /^\d+$/.test(raw)
    ? Number.parseInt(raw, 10)
    : /^\d*\.\d*$|^\d+\.?$/.test(raw) && raw !== '.'
      ? Number(raw)
      : Number.NaN;
  if (Number.isNaN(value)) return 0;
  let dec = false;
  if (/^[kmgtpezy]b$/.test(unit)) dec = true;
  else if (!/^(b|[kmgtpezy](ib)?)$/.test(unit)) return 0;
  const p = 'bkmgtpezy'.indexOf(unit[0]!);
  return Math.trunc(value * (dec ? 10 ** (p * 3) : 2 ** (p * 10)));
}

/** Whole days between two local dates (Python's `abs(date.today() - date.fromtimestamp(t)).days`). */
function daysSince(ms: number): number {
  const day = (d: Date) => Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / 86_400_000;
  return Math.abs(day(new Date()) - day(new Date(ms)));
}

export const tidied = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      age: z.number().default(0),
      matches: z.array(z.string()).nullish(),
      rmdirs: z.boolean().default(false),
      size: z.union([z.number(), z.string()]).default(0),
      exclude: z.array(z.string()).nullish(),
      full_path_match: z.boolean().default(false),
      followlinks: z.boolean().default(false),
      time_comparison: z.unknown().default('atime'),
      age_size_logical_operator: z.string().default('OR'),
      age_size_only: z.string().nullish(),
      rmlinks: z.boolean().default(true),
    }),
  varkw: true,
  doc: 'Remove unwanted files based on specific criteria: name (regular expressions), age and size.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    let op = a.age_size_logical_operator.toUpperCase();
    if (op !== 'AND' && op !== 'OR') op = 'OR';
    let only = a.age_size_only ? a.age_size_only.toLowerCase() : null;
    if (only !== 'age' && only !== 'size') only = null;
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    if (!(await isDir(name))) return fail(ret, `${name} does not exist or is not a directory.`);
    const tc = typeof a.time_comparison === 'string' ? a.time_comparison.toLowerCase() : '';
    const timeKey = tc === 'ctime' ? 'ctimeMs' : tc === 'mtime' ? 'mtimeMs' : 'atimeMs';
    const size = typeof a.size === 'string' ? humanToBytes(a.size) : a.size;
    const progs = (a.matches ?? ['.*']).map((r) => pyRegex(`^(?:${r})`));
    const exes = (a.exclude ?? []).map((r) => pyRegex(`^(?:${r})`));
    const matches = (n: string) => progs.some((p) => p.test(n)) && !exes.some((x) => x.test(n));
    const todelete: string[] = [];
    for (const [root, dirs, files] of await walkUp(name, a.followlinks)) {
      for (const elem of [...files, ...dirs]) {
        const path = join(root, elem);
        let deleteme = true;
        let mysize = 0;
        let st: Awaited<ReturnType<typeof stat>>;
        try {
          const l = await lstat(path);
          if (l.isSymbolicLink()) {
            if (!a.rmlinks) deleteme = false;
            st = l;
          } else {
            st = await stat(path);
            if (st.isDirectory()) deleteme = a.rmdirs;
            else mysize = st.size;
          }
        } catch {
          continue;
        }
        const age = daysSince(st[timeKey]);
        const ok =
          only === 'age'
            ? age >= a.age
            : only === 'size'
              ? mysize >= size
              : op === 'AND'
                ? mysize >= size && age >= a.age
                : mysize >= size || age >= a.age;
        if (ok && matches(a.full_path_match ? path : elem) && deleteme) todelete.push(path);
      }
    }
    if (!todelete.length) {
      ret.comment = `Nothing to remove from directory ${name}`;
      return ret;
    }
    if (ctx.test)
      return { ...ret, result: null, comment: `${name} is set for tidy`, changes: { removed: todelete } };
    const removed: string[] = [];
    ret.changes.removed = removed;
    for (const path of todelete) {
      try {
        await rm(path, { recursive: true, force: true });
      } catch (err) {
        return fail(ret, `Could not remove '${path}': ${(err as Error).message}`);
      }
      removed.push(path);
    }
    ret.comment = `Removed ${todelete.length} files or directories from directory ${name}`;
    return ret;
  },
});
