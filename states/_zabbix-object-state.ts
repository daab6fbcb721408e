/**
 * The shape Salt's `zabbix_valuemap`, `zabbix_action` (and `zabbix_template`'s parts) share:
 * an object described by a `params` dict, its query-object references resolved by
 * `zabbix.substitute_params`, compared with what `<object>.get` finds by name through
 * `zabbix.compare_params`, then created, updated with the differences, or deleted through
 * `zabbix.run_query`. Under test=True, Salt's result is True (not None) with the changes it
 * would make.
 */
import type { ExtraArgs } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyShortTypeName } from '../modules/_py-type-name.js';
import { deepCopy } from '../modules/_traverse.js';
import { pyClassName, type StateContext, type StateReturn } from '../plugins/states/index.js';

type Dict = Record<string, unknown>;

/** One object kind: its API name, the label Salt's comments use, its `.get` selects. */
export interface ZabbixObjectKind {
  /** The API's object name (`valuemap`, `action`). */
  readonly object: string;
  /** As Salt's comments name it (`Value map`, `Action`). */
  readonly label: string;
  /** The `select*` keys of the `.get` call, each "extend". */
  readonly selects: readonly string[];
  /** Salt's own defaults put into `params` (after its `name`), in place. */
  readonly defaults?: (params: Dict) => void;
}

/** Python's `params[key] = value` on a value that may not be a dict. */
export function setItem(params: unknown, key: string, value: unknown): Dict {
  if (params && typeof params === 'object' && !Array.isArray(params)) {
    (params as Dict)[key] = value;
    return params as Dict;
  }
  if (Array.isArray(params))
    throw pythonError('TypeError', 'list indices must be integers or slices, not str');
  throw pythonError('TypeError', `'${pyShortTypeName(params)}' object does not support item assignment`);
}

/** A SaltException (or subclass), as Python's `except SaltException` catches it. */
export const isSaltException = (e: unknown): boolean =>
  e instanceof Error && pyClassName(e).startsWith('salt.exceptions.');

/**
 * A copy of the given params' dicts and lists, so Salt's in-place edits stay off the caller's
 * data; other values (a float, a big int) are kept as they are. Measured: a JSON round trip
 * makes `1.0` an int (sent as '1'), structuredClone makes it a plain dict; Salt sends '1.0'.
 */
export const copyParams = <T>(v: T): T => deepCopy(v);

/** Salt's `present(name, params, **kwargs)` of a run_query-style zabbix state. */
export async function objectPresent(
  ctx: StateContext,
  kind: ZabbixObjectKind,
  name: unknown,
  given: unknown,
  extra: ExtraArgs,
): Promise<StateReturn> {
  const kw = extra.kwargs;
  const params = setItem(copyParams(given), 'name', name);
  kind.defaults?.(params);
  const n = pyStr(name);
  const what = `Zabbix ${kind.label} "${n}"`;
  const ret: StateReturn = { name: n, result: false, comment: '', changes: {} };
  const mapper = (await ctx.call('zabbix.get_zabbix_id_mapper', [], {})) as Dict;
  const input = await ctx.call('zabbix.substitute_params', [params], kw);
  const search: Dict = { output: 'extend' };
  for (const s of kind.selects) search[s] = 'extend';
  search.filter = { name };
  const got = await ctx.call('zabbix.run_query', [`${kind.object}.get`, search], kw);
  const existing =
    Array.isArray(got) && got.length === 1 ? await ctx.call('zabbix.substitute_params', [got[0]], kw) : false;
  if (pyTruthy(existing)) {
    const diff = (await ctx.call('zabbix.compare_params', [input, existing], {})) as Dict;
    if (!pyTruthy(diff))
      return { ...ret, result: true, comment: `${what} already exists and corresponds to a definition.` };
    const idKey = String(mapper[kind.object]);
    diff[idKey] = (existing as Dict)[idKey];
    if (ctx.test)
      return {
        ...ret,
        result: true,
        comment: `${what} would be fixed.`,
        changes: {
          [n]: {
            old: `${what} differs in following parameters: ${pyStr(diff)}`,
            new: `${what} would correspond to definition.`,
          },
        },
      };
    const updated = await ctx.call('zabbix.run_query', [`${kind.object}.update`, diff], kw);
    if (!pyTruthy(updated)) return ret;
    return {
      ...ret,
      result: true,
      comment: `${what} updated.`,
      changes: {
        [n]: { old: `${what} differed in following parameters: ${pyStr(diff)}`, new: `${what} fixed.` },
      },
    };
  }
  if (ctx.test)
    return {
      ...ret,
      result: true,
      comment: `${what} would be created.`,
      changes: {
        [n]: { old: `${what} does not exist.`, new: `${what} would be created according definition.` },
      },
    };
  const created = await ctx.call('zabbix.run_query', [`${kind.object}.create`, input], kw);
  if (!pyTruthy(created)) return ret;
  return {
    ...ret,
    result: true,
    comment: `${what} created.`,
    changes: { [n]: { old: `${what} did not exist.`, new: `${what} created according definition.` } },
  };
}

/** Salt's `absent(name, **kwargs)` of a run_query-style zabbix state. */
export async function objectAbsent(
  ctx: StateContext,
  kind: ZabbixObjectKind,
  name: unknown,
  extra: ExtraArgs,
): Promise<StateReturn> {
  const kw = extra.kwargs;
  const n = pyStr(name);
  const what = `Zabbix ${kind.label} "${n}"`;
  const ret: StateReturn = { name: n, result: false, comment: '', changes: {} };
  let id: unknown;
  try {
    id = await ctx.call('zabbix.get_object_id_by_params', [kind.object, { filter: { name } }], kw);
  } catch (e) {
    if (!isSaltException(e)) throw e;
    id = false;
  }
  if (!pyTruthy(id)) return { ...ret, result: true, comment: `${what} does not exist.` };
  if (ctx.test)
    return {
      ...ret,
      result: true,
      comment: `${what} would be deleted.`,
      changes: { [n]: { old: `${what} exists.`, new: `${what} would be deleted.` } },
    };
  const deleted = await ctx.call('zabbix.run_query', [`${kind.object}.delete`, [id]], kw);
  if (!pyTruthy(deleted)) return ret;
  return {
    ...ret,
    result: true,
    comment: `${what} deleted.`,
    changes: { [n]: { old: `${what} existed.`, new: `${what} deleted.` } },
  };
}
