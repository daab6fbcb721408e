/**
 * How pillar sources are merged: Salt's `salt.utils.dictupdate.merge` with the strategies of
 * `pillar_source_merging_strategy` (`smart`, `recurse`, `aggregate`, `overwrite`, `none`,
 * `list`) and `pillar_merge_lists`. Pure: the inputs are never changed.
 */
import { deepCopy, isMapping, pyEquals } from '../../modules/_traverse.js';

export type PillarData = Record<string, unknown>;

export type MergeStrategy = 'smart' | 'recurse' | 'aggregate' | 'overwrite' | 'none' | 'list';

/** Salt's `dictupdate.update` on `dest` (changed in place): mappings recurse, lists merge when asked. */
function update(dest: PillarData, upd: PillarData, mergeLists: boolean): PillarData {
  for (const [key, val] of Object.entries(upd)) {
    const cur = Object.hasOwn(dest, key) ? dest[key] : undefined;
    if (isMapping(cur) && isMapping(val)) dest[key] = update(cur, val, mergeLists);
    else if (mergeLists && Array.isArray(cur) && Array.isArray(val)) {
      const merged = [...cur];
      for (const x of val) if (!merged.some((y) => pyEquals(x, y))) merged.push(deepCopy(x));
      dest[key] = merged;
    } else dest[key] = deepCopy(val);
  }
  return dest;
}

/** `merge_recurse`: a deep copy of `a` updated recursively with `b`. */
function mergeRecurse(a: PillarData, b: PillarData, mergeLists: boolean): PillarData {
  return update(deepCopy(a), b, mergeLists);
}

/**
 * `merge_aggregate` (`yamlex.merge_recursive` at level 1) for untagged data: the top level keeps
 * `a`'s keys; below it a mapping keeps only the keys of `b`'s mapping, merged recursively, and
 * anything else is `b`'s value (plain YAML carries no `!aggregate` marks).
 */
function aggregate(a: unknown, b: unknown, top: boolean): unknown {
  if (isMapping(a) && isMapping(b)) {
    const out: PillarData = top ? deepCopy(a) : {};
    for (const [k, v] of Object.entries(b))
      out[k] = Object.hasOwn(a, k) ? aggregate(a[k], v, false) : deepCopy(v);
    return out;
  }
  if (top && Array.isArray(a) && Array.isArray(b)) {
    const out = deepCopy(a);
    for (const x of b) if (!a.some((y) => pyEquals(x, y))) out.push(deepCopy(x));
    return out;
  }
  return deepCopy(b);
}

/** `merge_list`: keys of `a`; a key both have becomes `[a's, b's]` (keys only in `b` are dropped, as in Salt). */
function mergeList(a: PillarData, b: PillarData): PillarData {
  const out: PillarData = {};
  for (const [k, v] of Object.entries(a))
    out[k] = Object.hasOwn(b, k) ? [deepCopy(v), deepCopy(b[k])] : deepCopy(v);
  return out;
}

/** The strategy `smart` stands for: `aggregate` under a yamlex renderer, else `recurse`. */
export function effectiveStrategy(strategy: string, renderer = 'jinja|yaml'): string {
  if (strategy !== 'smart') return strategy;
  return renderer.split('|').at(-1) === 'yamlex' || renderer.startsWith('yamlex_') ? 'aggregate' : 'recurse';
}

/** Salt's `dictupdate.merge(a, b, strategy, renderer, merge_lists)`; `b` wins. Unknown strategies recurse. */
export function mergePillar(
  a: PillarData,
  b: PillarData,
  strategy: string = 'smart',
  mergeLists = false,
  renderer = 'jinja|yaml',
): PillarData {
  switch (effectiveStrategy(strategy, renderer)) {
    case 'list':
      return mergeList(a, b);
    case 'aggregate':
      return aggregate(a, b, true) as PillarData;
    case 'overwrite': {
      const first = deepCopy(a);
      for (const k of Object.keys(b)) if (Object.hasOwn(first, k)) first[k] = deepCopy(b[k]);
      return mergeRecurse(first, b, mergeLists);
    }
    case 'recurse':
      return mergeRecurse(a, b, mergeLists);
    default:
      // `none`, and an unknown strategy (Salt warns and recurses), ignore merge_lists
      return mergeRecurse(a, b, false);
  }
}
