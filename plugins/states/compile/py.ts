/**
 * The few Python data habits the state compiler copies from Salt's `salt/state.py`: dict
 * checks, the first key of a one-key dict, deep equality that ignores key order (Python's
 * `==` on dicts), deep copies, `fnmatch.filter`, and `pop`-then-set that moves a key last.
 */
import { globMatch, pyRepr, pyStr } from '../../../kernel/util.js';

/** A mapping (a Python dict): a plain object, not an array or null. */
export type Dict = Record<string, unknown>;

export function isDict(v: unknown): v is Dict {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  // a class instance (an integral float, a datetime) is a value, not a mapping
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The first key of a dict (Python's `next(iter(d))`); undefined for an empty one. */
export function firstKey(d: Dict): string | undefined {
  for (const k in d) return k;
  return undefined;
}

/** Python's `==`: dicts compare without regard to key order, lists item by item. */
export function pyEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEqual(x, b[i]));
  }
  if (isDict(a) && isDict(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.hasOwn(b, k) && pyEqual(a[k], b[k]));
  }
  return false;
}

/** A deep copy of plain data (Python's `copy.deepcopy` of rendered SLS data). */
export function deepCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => deepCopy(x)) as T;
  if (isDict(v)) {
    const out: Dict = {};
    for (const [k, x] of Object.entries(v)) out[k] = deepCopy(x);
    return out as T;
  }
  return v;
}

/** Python's `fnmatch.fnmatch(name, pattern)` (case-sensitive, as on POSIX). */
export function fnmatch(pattern: string, name: string): boolean {
  return globMatch(pattern, name);
}

/** Python's `fnmatch.filter(names, pattern)`. */
export function fnmatchFilter(names: readonly string[], pattern: string): string[] {
  return names.filter((n) => globMatch(pattern, n));
}

/** Python's `d[key] = d.pop(old)`: the value leaves `old` and lands on `key` (last, unless `key` exists). */
export function renameKey(d: Dict, old: string, key: string): unknown {
  const v = d[old];
  delete d[old];
  d[key] = v;
  return v;
}

/** Python's `repr()` of rendered SLS data, whose dicts are `OrderedDict`s (Python 3.11's form). */
export function pyOrderedRepr(v: unknown): string {
  if (isDict(v)) {
    const items = Object.entries(v).map(([k, x]) => `(${pyRepr(k)}, ${pyOrderedRepr(x)})`);
    return items.length === 0 ? 'OrderedDict()' : `OrderedDict([${items.join(', ')}])`;
  }
  if (Array.isArray(v)) return `[${v.map((x) => pyOrderedRepr(x)).join(', ')}]`;
  return pyRepr(v);
}

/** Python's `str()` of rendered SLS data (`OrderedDict` reprs inside). */
export function pyOrderedStr(v: unknown): string {
  return typeof v === 'string' ? v : isDict(v) || Array.isArray(v) ? pyOrderedRepr(v) : pyStr(v);
}
