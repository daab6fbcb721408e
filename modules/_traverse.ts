/**
 * Salt's `salt.utils.data.traverse_dict_and_list` and `filter_by`, and Python equality for
 * the values grains hold.
 */

import { SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { SaltFloat } from '../kernel/python/index.js';
import { pyTruthy } from '../kernel/util.js';
import { fnmatch } from './_fnmatch.js';
import { isOrdered, markOrdered } from './_ordered.js';

export function isMapping(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  // bytes, an integral float, a datetime: values, not mappings
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

const PY_INT = /^\s*[-+]?\d+(?:_\d+)*\s*$/;

/**
 * The value at `key` (`a:b:0:c`, split on `delimiter`) in nested mappings and lists, or
 * `fallback`. A list step takes a numeric index, or the key of the first embedded mapping that
 * has it.
 */
export function traverse(
  data: unknown,
  key: string | number | readonly (string | number)[],
  fallback: unknown,
  delimiter = ':',
): unknown {
  const parts = typeof key === 'string' ? key.split(delimiter) : typeof key === 'number' ? [key] : key;
  let ptr = data;
  for (const raw of parts) {
    const each = String(raw);
    if (Array.isArray(ptr)) {
      if (PY_INT.test(each)) {
        let idx = Number(each.replace(/_/g, '').trim());
        if (idx < 0) idx += ptr.length;
        if (idx < 0 || idx >= ptr.length) return fallback;
        ptr = ptr[idx];
        continue;
      }
      const embedded = ptr.find((x) => isMapping(x) && Object.hasOwn(x, each)) as
        | Record<string, unknown>
        | undefined;
      if (!embedded) return fallback;
      ptr = embedded[each];
    } else if (isMapping(ptr)) {
      if (!Object.hasOwn(ptr, each)) return fallback;
      ptr = ptr[each];
    } else return fallback;
  }
  return ptr;
}

/** Python `==` for plain data: deep, with `1 == 1.0 == True` (a YAML `1.0` is a SaltFloat). */
export function pyEquals(a: unknown, b: unknown): boolean {
  const num = (v: unknown): number | bigint | undefined =>
    typeof v === 'boolean'
      ? Number(v)
      : typeof v === 'number' || typeof v === 'bigint'
        ? v
        : v instanceof SaltFloat
          ? v.value
          : undefined;
  const na = num(a);
  const nb = num(b);
  // biome-ignore lint/suspicious/noDoubleEquals: number/bigint comparison by value
  if (na !== undefined || nb !== undefined) return na !== undefined && nb !== undefined && na == nb;
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => pyEquals(x, b[i]))
    );
  }
  if (isMapping(a) || isMapping(b)) {
    if (!isMapping(a) || !isMapping(b)) return false;
    const ka = Object.keys(a);
    return (
      ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && pyEquals(a[k], b[k]))
    );
  }
  if (a === undefined) return b === null || b === undefined;
  return a === b || (a === null && b === undefined);
}

/** A deep copy of plain data. */
export function deepCopy<T>(v: T): T {
  if (Array.isArray(v)) return v.map(deepCopy) as T;
  if (isMapping(v)) {
    const copy = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, deepCopy(x)]));
    return (isOrdered(v) ? markOrdered(copy) : copy) as T;
  }
  return v;
}

/** Salt's `dictupdate.update` (in place): nested mappings merge, anything else replaces. */
export function dictUpdate(
  dest: Record<string, unknown>,
  upd: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  for (const [k, v] of Object.entries(upd)) {
    const cur = dest[k];
    if (isMapping(cur) && isMapping(v)) dictUpdate(cur, v);
    else dest[k] = v;
  }
  return dest;
}

/** Python's `str()` of a scalar key as `filter_by` compares it. */
function keyText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (v === null || v === undefined) return 'None';
  return String(v);
}

/** Salt's `salt.utils.data.filter_by`. */
export function filterBy(
  lookupDict: Readonly<Record<string, unknown>>,
  lookup: string,
  traverseIn: unknown,
  merge: unknown,
  defaultKey: unknown,
  base: unknown,
): unknown {
  let ret: unknown = null;
  const val = traverse(traverseIn, lookup, []);
  for (const each of Array.isArray(val) ? val : [val]) {
    const text = keyText(each);
    for (const key of Object.keys(lookupDict)) {
      if (fnmatch(text, key)) {
        ret = lookupDict[key] ?? null;
        break;
      }
    }
    if (ret !== null) break;
  }
  if (ret === null) ret = lookupDict[keyText(defaultKey)] ?? null;
  if (pyTruthy(base) && typeof base !== 'object' && Object.hasOwn(lookupDict, keyText(base))) {
    const baseValues = lookupDict[keyText(base)];
    if (ret === null) ret = baseValues ?? null;
    else if (isMapping(baseValues)) {
      if (!isMapping(ret)) {
        throw new SALT_ERR_EXEC_VALUE('filter_by default and look-up values must both be dictionaries.');
      }
      ret = dictUpdate(deepCopy(baseValues), ret);
    }
  }
  if (pyTruthy(merge)) {
    if (!isMapping(merge)) throw new SALT_ERR_EXEC_VALUE('filter_by merge argument must be a dictionary.');
    if (ret === null) ret = merge;
    else if (isMapping(ret)) dictUpdate(ret, deepCopy(merge));
    else throw new SALT_ERR_EXEC_VALUE('Cannot update using non-dict types in dictupdate.update()');
  }
  return ret;
}
