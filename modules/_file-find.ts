/**
 * `file.find`, basic (Salt's `salt/modules/file.py` `find` over `salt.utils.find.Finder`):
 * the criteria name, iname, regex, iregex, type, user, group, size, mtime with mindepth and
 * maxdepth, and the print action (path, name, size, type, mode, mtime, user, group, md5);
 * results sorted. `delete`, `exec` and `grep` are not done here.
 */
import { createHash } from 'node:crypto';
import type { Stats } from 'node:fs';
import { lstat, readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { gidToGroup, groupToGid, uidToUser, userToUid } from './_file-stat.js';
import { fnmatch } from './_fnmatch.js';

type Criterion = (name: string, full: string, st: () => Promise<Stats>) => Promise<boolean> | boolean;

const TYPE_OF = (s: Stats): string =>
  s.isBlockDevice()
    ? 'b'
    : s.isCharacterDevice()
      ? 'c'
      : s.isDirectory()
        ? 'd'
        : s.isFile()
          ? 'f'
          : s.isSymbolicLink()
            ? 'l'
            : s.isFIFO()
              ? 'p'
              : s.isSocket()
                ? 's'
                : '?';

function parseSize(value: string): [number, number] {
  let scalar = value.trim();
  let style = '=';
  if (scalar.startsWith('-') || scalar.startsWith('+')) [style, scalar] = [scalar[0]!, scalar.slice(1)];
  const mults: Record<string, number> = { b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30, t: 2 ** 40 };
  let mult = 1;
  if (scalar && mults[scalar.slice(-1).toLowerCase()]) {
    mult = mults[scalar.slice(-1).toLowerCase()]!;
    scalar = scalar.slice(0, -1).trim();
  }
  const num = Math.trunc(Number(scalar) * mult);
  if (!scalar || Number.isNaN(num)) throw new Error(`invalid size: "${value}"`);
  if (style === '-') return [0, num];
  if (style === '+') return [num, Number.MAX_SAFE_INTEGER];
  return [num, num + mult - 1];
}

function parseInterval(value: string): [number, number, string] {
  const m =
    /^\s*([+-]?)(?:(\d+(?:\.\d*)?)\s*[wW])?\s*(?:(\d+(?:\.\d*)?)\s*[dD])?\s*(?:(\d+(?:\.\d*)?)\s*[hH])?\s*(?:(\d+(?:\.\d*)?)\s*[mM])?\s*(?:(\d+(?:\.\d*)?)\s*[sS])?\s*$/.exec(
      value,
    );
  if (!m) throw new Error(`invalid time interval: '${value}'`);
  const units: Array<[number, number]> = [
    [6, 1],
    [5, 60],
    [4, 3600],
    [3, 86400],
    [2, 604800],
  ];
  let secs = 0;
  let resolution = 0;
  for (const [g, mult] of units) {
    if (m[g] !== undefined) {
      secs += Number(m[g]) * mult;
      if (!resolution) resolution = mult;
    }
  }
  return [secs, resolution || 1, m[1]!];
}

function ids(value: string, toId: (n: string) => number | ''): Set<number> {
  const out = new Set<number>();
  for (const v of value.replace(/,/g, ' ').split(/\s+/).filter(Boolean)) {
    const id = /^\d+$/.test(v) ? Number(v) : toId(v);
    if (id === '') throw new Error(`no such user or group "${v}"`);
    out.add(id);
  }
  return out;
}

function criterion(key: string, value: string): Criterion {
  switch (key) {
    case 'name':
      return (name) => value.split(/[\s,]+/).some((p) => fnmatch(name, p));
    case 'iname':
      return (name) => value.split(/[\s,]+/).some((p) => fnmatch(name.toLowerCase(), p.toLowerCase()));
    case 'regex': {
      const re = new RegExp(value);
      return (name) => re.test(name);
    }
    case 'iregex': {
      const re = new RegExp(value, 'i');
      return (name) => re.test(name);
    }
    case 'type': {
      const types = new Set(value.replace(/[\s,]/g, ''));
      for (const t of types) if (!'bcdflps'.includes(t)) throw new Error(`invalid file type "${t}"`);
      return async (_n, _f, st) => types.has(TYPE_OF(await st()));
    }
    case 'user':
    case 'owner': {
      const want = ids(value, (n) => userToUid(n));
      return async (_n, _f, st) => want.has((await st()).uid);
    }
    case 'group': {
      const want = ids(value, (n) => groupToGid(n));
      return async (_n, _f, st) => want.has((await st()).gid);
    }
    case 'size': {
      const [min, max] = parseSize(value);
      return async (_n, _f, st) => {
        const s = (await st()).size;
        return min <= s && s <= max;
      };
    }
    case 'mtime': {
      const [secs, res, mod] = parseInterval(value);
      const limit = Date.now() / 1000 - Math.trunc(secs / res) * res;
      return async (_n, _f, st) => {
        const m = Math.trunc((await st()).mtimeMs / 1000);
        return mod === '-' ? m >= limit : m <= limit;
      };
    }
    default:
      throw new Error(`invalid option "${key}"`);
  }
}

async function printOf(fields: string[], full: string, s: Stats): Promise<unknown> {
  const out: unknown[] = [];
  for (const f of fields) {
    if (f === 'path') out.push(full);
    else if (f === 'name') out.push(basename(full));
    else if (f === 'size') out.push(s.size);
    else if (f === 'type') out.push(TYPE_OF(s));
    else if (f === 'mode') out.push(Number.parseInt((s.mode & 0o777).toString(8).slice(-3), 8));
    else if (f === 'mtime') out.push(Math.trunc(s.mtimeMs / 1000));
    else if (f === 'user') out.push(uidToUser(s.uid));
    else if (f === 'group') out.push(gidToGroup(s.gid));
    else if (f === 'md5')
      out.push(
        s.isFile()
          ? createHash('md5')
              .update(await readFile(full))
              .digest('hex')
          : '',
      );
  }
  return out.length === 1 ? out[0] : out;
}

/** Salt's `file.find(path, *args, **kwargs)`: the sorted results, or `error: ...`. */
export async function findFiles(
  path: string,
  args: readonly string[],
  kwargs: Readonly<Record<string, unknown>>,
): Promise<unknown[] | string> {
  const opts: Record<string, string> = {};
  for (const a of args) {
    const eq = a.indexOf('=');
    if (eq > 0) opts[a.slice(0, eq)] = a.slice(eq + 1);
  }
  for (const [k, v] of Object.entries(kwargs)) if (!k.startsWith('__')) opts[k] = String(v);
  if (args.includes('print') && !opts.print) opts.print = 'path';
  const mindepth = opts.mindepth !== undefined ? Number(opts.mindepth) : 0;
  const maxdepth = opts.maxdepth !== undefined ? Number(opts.maxdepth) : undefined;
  delete opts.mindepth;
  delete opts.maxdepth;
  const fields = (opts.print ?? 'path').replace(/,/g, ' ').split(/\s+/).filter(Boolean);
  delete opts.print;
  let criteria: Criterion[];
  try {
    criteria = Object.entries(opts).map(([k, v]) => {
      if (!v) throw new Error(`missing value for "${k}" option`);
      return criterion(k, v);
    });
  } catch (err) {
    return `error: ${(err as Error).message}`;
  }
  const results: unknown[] = [];
  const consider = async (name: string, full: string) => {
    let cached: Stats | undefined;
    const st = async () => (cached ??= await stat(full).catch(() => lstat(full)));
    for (const c of criteria) if (!(await c(name, full, st))) return;
    results.push(await printOf(fields.length ? fields : ['path'], full, await st()));
  };
  if (!(await lstat(path).catch(() => undefined))) return [];
  if (mindepth < 1) await consider(basename(path), path);
  const walk = async (dir: string) => {
    const rel = relative(path, dir);
    const depth = (rel ? rel.split('/').length : 0) + 1;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (depth >= mindepth && (maxdepth === undefined || maxdepth >= depth))
      for (const e of entries) await consider(e.name, join(dir, e.name));
    if (maxdepth !== undefined && depth > maxdepth) return;
    for (const e of entries) if (e.isDirectory()) await walk(join(dir, e.name));
  };
  if ((await stat(path).catch(() => undefined))?.isDirectory()) await walk(path);
  return results.sort((a, b) =>
    JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0,
  );
}
