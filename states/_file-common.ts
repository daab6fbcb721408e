/**
 * Shared pieces of the `file` state module (Salt's `salt/states/file.py` helpers `_error`,
 * `_check_file`, `_makedirs`, `_validate_str_list`): the return under construction, path
 * checks, and the text arguments states take as a string or a list of strings.
 */
import { dirname, isAbsolute } from 'node:path';
import type { Ret } from '../modules/_file-perms.js';
import { isFile } from '../modules/_file-stat.js';
import { fnmatch } from '../modules/_fnmatch.js';

export type { Ret };

/** A fresh state return. */
export function newRet(name: string, result: boolean | null = true, comment = ''): Ret {
  return { name, changes: {}, result, comment };
}

/** A fresh return with the keys in the order of Salt's `copy` and `rename`. */
export function newRetCommentFirst(name: string, result: boolean | null = true, comment = ''): Ret {
  return { name, changes: {}, comment, result };
}

/** A fresh return with the keys in the order of Salt's `managed` and `serialize`. */
export function newRetSorted(name: string, result: boolean | null = true, comment = ''): Ret {
  return { changes: {}, comment, name, result };
}

/** Salt's `_error`: result false with a comment. */
export function fail(ret: Ret, msg: string): Ret {
  ret.result = false;
  ret.comment = msg;
  return ret;
}

/** `os.path.expanduser` for `~` and `~/...` (root's home for the minion's user). */
export function expandUser(name: string): string {
  if (name === '~' || name.startsWith('~/')) return (process.env.HOME ?? '/root') + name.slice(1);
  return name;
}

/** Salt's `_check_file`: `[true, '']` or why `name` cannot be edited. */
export async function checkFile(name: string): Promise<[boolean, string]> {
  if (!isAbsolute(name)) return [false, `Specified file ${name} is not an absolute path`];
  if (!(await isFile(name))) return [false, `${name}: file not found`];
  return [true, ''];
}

/** Salt's `_validate_str_list`: a string → its lines kept whole as one item; a list → strings. */
export function strList(arg: unknown): string[] {
  if (arg === null || arg === undefined) return [];
  if (Array.isArray(arg)) return arg.map((x) => (typeof x === 'string' ? x : String(x)));
  return [String(arg)];
}

/** The parent folder of a path. */
export function parentOf(name: string): string {
  return dirname(name);
}

export type Pat = string | string[] | null | undefined;

/** Salt's `check_include_exclude`: globs, or regular expressions after `E@`. */
export function includeExclude(path: string, include: Pat, exclude: Pat): boolean {
  const hit = (pat: string) =>
    pat.startsWith('E@') ? new RegExp(pat.slice(2)).test(path) : fnmatch(path, pat);
  const any = (p: Pat) => (Array.isArray(p) ? p.some(hit) : hit(p as string));
  const inc = include && (!Array.isArray(include) || include.length) ? any(include) : null;
  const exc = exclude && (!Array.isArray(exclude) || exclude.length) ? !any(exclude) : null;
  if (inc !== null && exc !== null) return inc && exc;
  return inc ?? exc ?? true;
}
