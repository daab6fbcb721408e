/**
 * The in-place list helpers of Salt's `pkg_resource` (`add_pkg`, `sort_pkglist`, `stringify`)
 * and its `format_pkg_list`/`format_version`, with Python's answers for input of the wrong
 * shape: the in-place ones return None (their change is lost to a CLI caller), and what Python
 * would raise a `TypeError` for is tsalt's invocation error with Python's message.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { isDict, pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';

type Dict = Record<string, unknown>;

const typeName = (v: unknown): string =>
  v === null || v === undefined
    ? 'NoneType'
    : typeof v === 'boolean'
      ? 'bool'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'int'
          : 'float'
        : typeof v === 'string'
          ? 'str'
          : Array.isArray(v)
            ? 'list'
            : 'dict';

const typeError = (message: string) => new SALT_ERR_INVOCATION(message);

/** The keys `for key in pkgs: pkgs[key]` walks, or Python's TypeError for a container that is no dict. */
function dictKeys(pkgs: unknown): string[] {
  if (isDict(pkgs)) return Object.keys(pkgs);
  if (typeof pkgs === 'string' || Array.isArray(pkgs)) {
    if (pkgs.length === 0) return [];
    const first: unknown = pkgs[0];
    if (typeof pkgs === 'string') throw typeError("string indices must be integers, not 'str'");
    throw typeError(`list indices must be integers or slices, not ${typeName(first)}`);
  }
  throw typeError(`'${typeName(pkgs)}' object is not iterable`);
}

/** What Python iterates in `v`: a str's characters, a list's items, a dict's keys. */
function iterate(v: unknown, onFail: string): unknown[] {
  if (typeof v === 'string') return [...v];
  if (Array.isArray(v)) return v;
  if (isDict(v)) return Object.keys(v);
  throw typeError(onFail);
}

/** Salt's `stringify`: each version list joined with commas, in place. */
export function stringifyInPlace(pkgs: unknown): void {
  for (const key of dictKeys(pkgs)) {
    const dict = pkgs as Dict;
    const items = iterate(dict[key], 'can only join an iterable');
    items.forEach((item, i) => {
      if (typeof item !== 'string')
        throw typeError(`sequence item ${i}: expected str instance, ${typeName(item)} found`);
    });
    dict[key] = items.join(',');
  }
}

/** Salt's `sort_pkglist`: each version list deduplicated and sorted, in place. */
export function sortPkglistInPlace(pkgs: unknown): void {
  for (const key of dictKeys(pkgs)) {
    const dict = pkgs as Dict;
    const items = iterate(dict[key], `'${typeName(dict[key])}' object is not iterable`);
    const unique = [...new Set(items)];
    if (unique.some((v) => typeof v !== 'string') && unique.some((v) => typeof v === 'string'))
      throw typeError("'<' not supported between instances of 'int' and 'str'");
    dict[key] = unique.sort((a, b) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0));
  }
}

/** Salt's `add_pkg`: appends a version to a package's list (an unfit container is logged, not raised). */
export function addPkgInPlace(pkgs: unknown, name: unknown, pkgver: unknown): void {
  if (!isDict(pkgs)) return;
  const key = pyStr(name);
  const list = pkgs[key] ?? [];
  if (Array.isArray(list)) {
    list.push(pkgver);
    pkgs[key] = list;
  }
}

/** Salt's `format_version`: `epoch:version-release`, each part only when it is set. */
export function formatVersion(epoch: unknown, version: unknown, release: unknown): unknown {
  let full: unknown = pyTruthy(epoch) ? `${pyStr(epoch)}:${pyStr(version)}` : version;
  if (pyTruthy(release)) {
    if (typeof full !== 'string')
      throw typeError(`unsupported operand type(s) for +=: '${typeName(full)}' and 'str'`);
    full = `${full}-${pyStr(release)}`;
  }
  return full;
}

const ATTRS = ['epoch', 'version', 'release', 'arch', 'install_date', 'install_date_time_t'];

/** Salt's `format_pkg_list` with attributes: each package's version dicts filtered to `attr`. */
async function withAttrs(
  packages: Dict,
  attr: unknown,
  parseArch: (name: string) => Promise<{ name: string; arch: string | null }>,
): Promise<Dict> {
  let wanted = ATTRS;
  if (attr !== 'all') {
    if (typeof attr === 'string') throw typeError('can only concatenate str (not "list") to str');
    if (!Array.isArray(attr))
      throw typeError(`unsupported operand type(s) for +: '${typeName(attr)}' and 'list'`);
    const asked = new Set([...attr.map((a) => pyStr(a)), 'version', 'arch']);
    wanted = ATTRS.filter((a) => asked.has(a));
  }
  const out: Record<string, unknown[]> = {};
  for (const [name, list] of Object.entries(packages)) {
    const parsed = await parseArch(name);
    const versions: Dict[] = [];
    let pkgname: string | null = null;
    for (const all of iterate(list, `'${typeName(list)}' object is not iterable`)) {
      const filtered: Dict = {};
      for (const key of wanted) if (isDict(all) && key in all) filtered[key] = all[key];
      versions.push(filtered);
      if (parsed.name && (filtered.arch ?? null) === parsed.arch) pkgname = parsed.name;
    }
    const key = pkgname || name;
    out[key] = [...(out[key] ?? []), ...versions];
  }
  return out;
}

/** Salt's `format_pkg_list`: list_pkgs' version dicts as version strings (or lists, or filtered dicts). */
export async function formatPkgList(
  packages: unknown,
  versionsAsList: unknown,
  attr: unknown,
  parseArch: (name: string) => Promise<{ name: string; arch: string | null }>,
): Promise<Dict> {
  const copy = structuredClone(packages);
  if (!isDict(copy)) throw typeError(`'${typeName(copy)}' object is not iterable`);
  if (pyTruthy(attr)) return withAttrs(copy, attr, parseArch);
  for (const [name, list] of Object.entries(copy)) {
    copy[name] = iterate(list, `'${typeName(list)}' object is not iterable`).map((d) => {
      if (!isDict(d))
        throw typeError(`${typeName(d) === 'str' ? 'string' : typeName(d)} indices must be integers`);
      for (const key of ['epoch', 'version', 'release'])
        if (!(key in d)) throw pythonError('KeyError', `'${key}'`);
      return formatVersion(d.epoch, d.version, d.release);
    });
  }
  if (!pyTruthy(versionsAsList)) stringifyInPlace(copy);
  return copy;
}
