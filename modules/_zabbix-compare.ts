/**
 * Salt's `zabbix` helpers the states build on: `compare_params` (what of a defined object
 * differs from the existing one, Python's type rules and quirks kept), `substitute_params`
 * (`{query_object, query_name}` dicts replaced by the id the API finds) and
 * `get_object_id_by_params`.
 */
import type { ExecContext } from '../kernel/index.js';
import { pyStr, pyTruthy, pyTypeName } from '../kernel/util.js';
import { pythonError } from './_py-exception.js';
import { pyShortTypeName } from './_py-type-name.js';
import { isMapping } from './_traverse.js';
import { type Kwargs, paramsExtend, saltException, withLogin } from './_zabbix-api.js';

/** Salt's `ZABBIX_TOP_LEVEL_OBJECTS`: queried without the caller's extra params. */
const TOP_LEVEL_OBJECTS = new Set([
  'hostgroup',
  'template',
  'host',
  'maintenance',
  'action',
  'drule',
  'service',
  'proxy',
  'screen',
  'usergroup',
  'mediatype',
  'script',
  'valuemap',
]);

/** Salt's `ZABBIX_ID_MAPPER`: the id field of each API object. */
export const ZABBIX_ID_MAPPER: Readonly<Record<string, string>> = {
  action: 'actionid',
  alert: 'alertid',
  application: 'applicationid',
  dhost: 'dhostid',
  dservice: 'dserviceid',
  dcheck: 'dcheckid',
  drule: 'druleid',
  event: 'eventid',
  graph: 'graphid',
  graphitem: 'gitemid',
  graphprototype: 'graphid',
  history: 'itemid',
  host: 'hostid',
  hostgroup: 'groupid',
  hostinterface: 'interfaceid',
  hostprototype: 'hostid',
  iconmap: 'iconmapid',
  image: 'imageid',
  item: 'itemid',
  itemprototype: 'itemid',
  service: 'serviceid',
  discoveryrule: 'itemid',
  maintenance: 'maintenanceid',
  map: 'sysmapid',
  usermedia: 'mediaid',
  mediatype: 'mediatypeid',
  proxy: 'proxyid',
  screen: 'screenid',
  screenitem: 'screenitemid',
  script: 'scriptid',
  template: 'templateid',
  templatescreen: 'screenid',
  templatescreenitem: 'screenitemid',
  trend: 'itemid',
  trigger: 'triggerid',
  triggerprototype: 'triggerid',
  user: 'userid',
  usergroup: 'usrgrpid',
  usermacro: 'globalmacroid',
  valuemap: 'valuemapid',
  httptest: 'httptestid',
};

/** Salt's `run_query`: the call's `result`, False when it is empty (a bool as it is). */
export function runQuery(ctx: ExecContext, method: string, params: unknown, kw: Kwargs): Promise<unknown> {
  return withLogin(ctx, kw, async (s) => {
    const p = params && typeof params === 'object' && !Array.isArray(params) ? params : null;
    if (p) paramsExtend(p as Record<string, unknown>, kw);
    else if (Object.keys(kw).some((k) => !k.startsWith('_')))
      throw pythonError(
        'AttributeError',
        `'${pyShortTypeName(params)}' object has no attribute 'setdefault'`,
      );
    const res = await s.result(method, params);
    return typeof res === 'boolean' ? res : pyTruthy(res) ? res : false;
  });
}

/** Salt's `get_object_id_by_params`: the id of the one object `<obj>.get` finds, as a string. */
export async function objectIdByParams(
  ctx: ExecContext,
  obj: string,
  params: unknown,
  kw: Kwargs,
): Promise<string> {
  const p = params ?? {};
  const res = await runQuery(ctx, `${obj}.get`, p, kw);
  if (Array.isArray(res) && res.length === 1) {
    const idKey = ZABBIX_ID_MAPPER[obj];
    const first = res[0] as Record<string, unknown>;
    if (idKey === undefined || !(idKey in first)) throw pythonError('KeyError', `'${idKey ?? obj}'`);
    return pyStr(first[idKey]);
  }
  throw saltException(
    `Zabbix API: Object does not exist or bad Zabbix user permissions or other unexpected result. Called method ${obj}.get with params ${pyStr(p)}. Result: ${pyStr(res)}`,
  );
}

/** Salt's `substitute_params`: every `{query_object, query_name}` dict replaced by its id, other leaves made strings. */
export async function substituteParams(
  ctx: ExecContext,
  input: unknown,
  extendParams: unknown,
  filterKey: unknown,
  kw: Kwargs,
): Promise<unknown> {
  const extend = extendParams ?? {};
  if (Array.isArray(input)) {
    const out: unknown[] = [];
    for (const item of input) out.push(await substituteParams(ctx, item, extend, filterKey, kw));
    return out;
  }
  if (isMapping(input)) {
    const obj = input as Record<string, unknown>;
    if ('query_object' in obj) {
      const queryParams: Record<string, unknown> = {};
      if (!TOP_LEVEL_OBJECTS.has(String(obj.query_object)))
        Object.assign(queryParams, extend as Record<string, unknown>);
      const notProvided = () =>
        saltException(`Qyerying object ID requested but object name not provided: ${pyStr(obj)}`);
      if (!('query_name' in obj)) throw notProvided();
      queryParams.filter = { [pyStr(filterKey)]: obj.query_name };
      try {
        return await objectIdByParams(ctx, String(obj.query_object), queryParams, kw);
      } catch (err) {
        if ((err as Error).name === 'KeyError') throw notProvided();
        throw err;
      }
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(obj)) out[k] = await substituteParams(ctx, v, extend, filterKey, kw);
    return out;
  }
  return pyStr(input);
}

/** Python's `isinstance(defined, type(existing))` for JSON-like values (a bool is an int). */
function sameType(defined: unknown, existing: unknown): boolean {
  const d = pyTypeName(defined);
  const e = pyTypeName(existing);
  return d === e || (e === "<class 'int'>" && d === "<class 'bool'>");
}

const isDict = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) && pyTypeName(v) === "<class 'dict'>";

function mismatch(defined: unknown, existing: unknown): Error {
  return saltException(
    `Zabbix object comparison failed (data type mismatch). Expecting ${pyTypeName(existing)}, got ${pyTypeName(defined)}. Existing value: "${pyStr(existing)}", defined value: "${pyStr(defined)}").`,
  );
}

type Diff = unknown;

/** `comp['new']` of a nested comparison, with Python's TypeError when it is None. */
function newOf(comp: Diff): unknown {
  if (comp === null || comp === undefined)
    throw pythonError('TypeError', "'NoneType' object is not subscriptable");
  return (comp as Record<string, unknown>).new;
}

/**
 * Salt's `compare_params`: what of `defined` differs from `existing` (None when nothing does);
 * with `returnOld`, `{new, old}` pairs.
 */
export function compareParams(defined: unknown, existing: unknown, returnOld: boolean): Diff {
  if (!sameType(defined, existing)) throw mismatch(defined, existing);
  const iterable = Array.isArray(defined) || isDict(defined);
  if (!iterable) {
    if (pyStr(defined) !== pyStr(existing))
      return returnOld ? { new: pyStr(defined), old: pyStr(existing) } : pyStr(defined);
    return null;
  }
  if (Array.isArray(defined)) {
    const ex = existing as unknown[];
    if (defined.length !== ex.length) return returnOld ? { new: defined, old: existing } : defined;
    const difflist: unknown[] = [];
    for (const ditem of defined) {
      const dInE = ex.map((eitem) => {
        const comp = compareParams(ditem, eitem, returnOld);
        return returnOld ? newOf(comp) : comp;
      });
      if (dInE.every((c) => pyTruthy(c))) difflist.push(ditem);
    }
    if (difflist.some((d) => pyTruthy(d))) return returnOld ? { new: defined, old: existing } : defined;
    return null;
  }
  const ex = existing as Record<string, unknown>;
  try {
    if (!Object.keys(defined).every((k) => k in ex))
      return returnOld ? { new: defined, old: existing } : defined;
    const changed = (comp: Diff) => pyTruthy(comp) || Array.isArray(comp);
    if (returnOld) {
      const diff = { new: {} as Record<string, unknown>, old: {} as Record<string, unknown> };
      for (const [k, v] of Object.entries(defined)) {
        if (changed(compareParams(v, ex[k], true))) {
          diff.new[k] = v;
          diff.old[k] = ex[k];
        }
      }
      return diff;
    }
    const diff: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(defined)) if (changed(compareParams(v, ex[k], false))) diff[k] = v;
    return diff;
  } catch (err) {
    if ((err as Error).name === 'TypeError') throw mismatch(defined, existing);
    throw err;
  }
}
