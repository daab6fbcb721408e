/**
 * Salt's `salt.utils.dictupdate` `update` and `merge` (strategies recurse, overwrite, list, none,
 * smart), shared by the config, defaults, slsutil and match modules.
 */
import { SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { deepCopy, isMapping, pyEquals } from './_traverse.js';

/**
 * Salt's `dictupdate.update(dest, upd, recursive_update, merge_lists)`, in place on `dest`:
 * nested mappings merge, lists replace (or gain the new items with `mergeLists`).
 */
export function dictUpdate(
  dest: unknown,
  upd: unknown,
  recursiveUpdate = true,
  mergeLists = false,
): Record<string, unknown> {
  if (!isMapping(dest) || !isMapping(upd)) {
    throw new SALT_ERR_EXEC_VALUE('Cannot update using non-dict types in dictupdate.update()');
  }
  const keys = Object.keys(upd);
  const shared = keys.some((k) => Object.hasOwn(dest, k));
  for (const key of keys) {
    const val = upd[key];
    const cur = dest[key];
    if (recursiveUpdate && shared && isMapping(cur) && isMapping(val)) {
      dest[key] = dictUpdate(cur, val, true, mergeLists);
    } else if (recursiveUpdate && shared && mergeLists && Array.isArray(cur) && Array.isArray(val)) {
      const merged = deepCopy(cur);
      for (const x of val) if (!merged.some((y) => pyEquals(x, y))) merged.push(x);
      dest[key] = merged;
    } else dest[key] = val;
  }
  return dest;
}

/** Salt's `merge_list`: keys of `a` present in `b` become `[a's value, b's value]`. */
function mergeList(a: Record<string, unknown>, b: Record<string, unknown>): Record<string, unknown> {
  const ret: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(a)) ret[k] = Object.hasOwn(b, k) ? [v, b[k]] : v;
  return ret;
}

/**
 * Salt's `dictupdate.merge(a, b, strategy, renderer, merge_lists)`: a new mapping (`a` deep
 * copied) unless the strategy is `overwrite`, which first writes `b`'s shared keys into `a`.
 * `aggregate` (yamlex) merges as `recurse`.
 */
export function dictMerge(
  a: unknown,
  b: unknown,
  strategy = 'smart',
  _renderer = 'yaml',
  mergeLists = false,
): Record<string, unknown> {
  const recurse = (x: unknown, y: unknown, lists: boolean) => dictUpdate(deepCopy(x), y, true, lists);
  switch (strategy) {
    case 'list':
      if (!isMapping(a) || !isMapping(b)) {
        throw new SALT_ERR_EXEC_VALUE('Cannot update using non-dict types in dictupdate.update()');
      }
      return mergeList(a, b);
    case 'overwrite':
      if (isMapping(a) && isMapping(b)) for (const k of Object.keys(b)) if (Object.hasOwn(a, k)) a[k] = b[k];
      return recurse(a, b, mergeLists);
    case 'smart':
    case 'recurse':
    case 'aggregate':
      return recurse(a, b, mergeLists);
    default:
      return recurse(a, b, false);
  }
}
