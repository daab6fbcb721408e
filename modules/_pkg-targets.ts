/**
 * Salt's `pkg_resource` helpers (`salt/modules/pkg_resource.py`) and `salt.utils.data.compare_dicts`:
 * turn `name`/`pkgs`/`sources` into install targets, flatten version lists to strings, and diff
 * two package lists into `{pkg: {old, new}}`.
 */
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyRepr, pyStr } from '../kernel/util.js';
import { fnmatch } from './_fnmatch.js';

/** Package name → installed versions. */
export type PkgList = Record<string, string[]>;
/** Package name → version (several joined with `,`: Salt's `stringify`). */
export type PkgVersions = Record<string, string>;

/** What `parse_targets` found: repository names with wanted versions, or package files. */
export type Targets =
  | { type: 'repository'; pkgs: Record<string, string | null> }
  | { type: 'file'; files: string[]; names: string[] };

/** Salt's `stringify`: version lists become comma-joined strings. */
export function stringify(list: PkgList): PkgVersions {
  const out: PkgVersions = {};
  for (const [k, v] of Object.entries(list)) out[k] = v.join(',');
  return out;
}

/**
 * Salt's `pkg_resource.version` over an installed list: the versions of `names` (a name with `*`
 * is a glob); one name without a glob answers its version alone, '' when it is not installed.
 */
export function selectVersions(
  pkgs: PkgList,
  names: readonly string[],
  versionsAsList: boolean,
): string | string[] | Record<string, string | string[]> {
  const ret: PkgList = {};
  let glob = false;
  for (const name of names) {
    if (name.includes('*')) {
      glob = true;
      for (const match of Object.keys(pkgs).filter((p) => fnmatch(p, name))) ret[match] = pkgs[match] ?? [];
    } else ret[name] = pkgs[name] ?? [];
  }
  const out: Record<string, string | string[]> = versionsAsList ? ret : stringify(ret);
  const values = Object.values(out);
  if (values.length === 1 && !glob) return values[0] ?? '';
  return out;
}

/** Salt's `compare_dicts`: what differs between two `{name: version}` maps. */
export function compareDicts(
  old: Readonly<Record<string, unknown>>,
  now: Readonly<Record<string, unknown>>,
): Record<string, { old: unknown; new: unknown }> {
  const ret: Record<string, { old: unknown; new: unknown }> = {};
  for (const key of new Set([...Object.keys(now), ...Object.keys(old)])) {
    if (!(key in old)) ret[key] = { old: '', new: now[key] };
    else if (!(key in now)) ret[key] = { new: '', old: old[key] } as { old: unknown; new: unknown };
    else if (JSON.stringify(now[key]) !== JSON.stringify(old[key]))
      ret[key] = { old: old[key], new: now[key] };
  }
  return ret;
}

const versionText = (v: unknown): string | null => (v === null || v === undefined ? null : pyStr(v));

/** A `pkgs` list (names, or one-key `{name: version}` maps) as name → version; a name twice is Salt's error. */
export function repackPkgs(pkgs: unknown): Record<string, string | null> {
  const list = typeof pkgs === 'string' ? pkgs.split(',') : Array.isArray(pkgs) ? pkgs : [];
  const out: Record<string, string | null> = {};
  for (const item of list) {
    if (item && typeof item === 'object' && !Array.isArray(item)) {
      const [name, ver] = Object.entries(item as Record<string, unknown>)[0] ?? [];
      if (name !== undefined) out[name] = versionText(ver);
    } else if (item !== null && item !== undefined) out[pyStr(item)] = null;
  }
  if (Array.isArray(pkgs) && pkgs.length !== Object.keys(out).length)
    throw new SALT_ERR_INVOCATION(
      `You are passing a list of packages that contains duplicated packages names: ${pyRepr(pkgs)}. This cannot be processed. In case you are targeting different versions of the same package, please target them individually`,
    );
  return out;
}

/** A `sources` list (`[{name: source}]`) as name → source. */
export function packSources(sources: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(sources)) return out;
  for (const item of sources) {
    if (item && typeof item === 'object') {
      for (const [name, src] of Object.entries(item as Record<string, unknown>)) out[name] = pyStr(src);
    }
  }
  return out;
}

const URL_PROTO = /^(salt|https?|ftp|s3|swift|file):\/\//;

/** Where a source is on this machine: local paths as they are, `file://` stripped, others via `cp.cache_file`. */
async function localSource(ctx: ExecContext, name: string, src: string, saltenv: string): Promise<string> {
  if (src.startsWith('file://')) return src.slice('file://'.length);
  if (URL_PROTO.test(src)) {
    const cached = await ctx.call('cp.cache_file', [src, saltenv]);
    if (typeof cached !== 'string' || cached === '')
      throw new SALT_ERR_EXEC_COMMAND(`Unable to cache ${src} for package ${name}`);
    return cached;
  }
  if (!path.isAbsolute(src))
    throw new SALT_ERR_INVOCATION(
      `Path ${src} for package ${name} is either not absolute or an invalid protocol`,
    );
  return src;
}

/** Salt's `pkg_resource.parse_targets`; null when there is nothing to act on. */
export async function parseTargets(
  ctx: ExecContext,
  a: { name?: string | null; pkgs?: unknown; sources?: unknown; version?: unknown; saltenv?: string },
): Promise<Targets | null> {
  const hasPkgs = Array.isArray(a.pkgs) ? a.pkgs.length > 0 : Boolean(a.pkgs);
  const hasSources = Array.isArray(a.sources) ? a.sources.length > 0 : Boolean(a.sources);
  if (hasPkgs && hasSources) return null;
  if (hasPkgs) {
    const pkgs = repackPkgs(a.pkgs);
    return Object.keys(pkgs).length ? { type: 'repository', pkgs } : null;
  }
  if (hasSources) {
    const packed = packSources(a.sources);
    const names = Object.keys(packed);
    if (!names.length) return null;
    const files: string[] = [];
    for (const name of names)
      files.push(await localSource(ctx, name, packed[name] ?? '', a.saltenv ?? 'base'));
    return { type: 'file', files, names };
  }
  if (a.name) {
    const pkgs: Record<string, string | null> = {};
    for (const n of a.name.split(',')) pkgs[n] = versionText(a.version);
    return { type: 'repository', pkgs };
  }
  return null;
}
