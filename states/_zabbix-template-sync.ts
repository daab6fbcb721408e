/**
 * How Salt's `zabbix_template.present` brings one part of a template (its items, triggers,
 * a discovery rule's prototypes, ...) to the defined list: the part's own members are read
 * under their parent, matched to the defined ones by the part's key, then created, deleted
 * or updated with the differences. Every change (or would-be change, under test=True) is
 * recorded on a change list, which decides the state's comment.
 */
import { pyStr, pyTruthy } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';
import { pyShortTypeName } from '../modules/_py-type-name.js';
import { isMapping, pyEquals } from '../modules/_traverse.js';
import { TEMPLATE_PARTS, type TemplatePart } from './_zabbix-template-parts.js';

type Dict = Record<string, unknown>;

/** A call of a `zabbix` module function with the state's keywords. */
export type ZabbixCall = (fun: string, args: readonly unknown[], kwargs?: Dict) => Promise<unknown>;

/** One change made (or that would be made). */
export interface TemplateChange {
  readonly component: string;
  readonly action: 'create' | 'update' | 'delete';
}

/** Python's `obj[key]` with a str key, raising as Python does. */
export function subscript(obj: unknown, key: string): unknown {
  if (isMapping(obj)) {
    if (!Object.hasOwn(obj, key)) throw pythonError('KeyError', `'${key}'`);
    return obj[key];
  }
  if (Array.isArray(obj)) throw pythonError('TypeError', 'list indices must be integers or slices, not str');
  if (typeof obj === 'string') throw pythonError('TypeError', "string indices must be integers, not 'str'");
  throw pythonError('TypeError', `'${pyShortTypeName(obj)}' object is not subscriptable`);
}

/** Python's iteration of a value as a list (`for x in v`). */
export function pyIter(v: unknown): unknown[] {
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isMapping(v)) return Object.keys(v);
  throw pythonError('TypeError', `'${pyShortTypeName(v)}' object is not iterable`);
}

const part = (component: string): TemplatePart => TEMPLATE_PARTS[component] as TemplatePart;

/** The part's members that belong to the parent itself (all of them less the inherited ones). */
export async function ownMembers(call: ZabbixCall, component: string, parentId: unknown): Promise<unknown> {
  const def = part(component);
  const query: Dict = { ...def.output, [def.qselectpid]: parentId };
  const all = await call('run_query', [`${def.qtype}.get`, query]);
  if (def.inherited !== 'inherited') return all;
  query.inherited = 'true';
  const inherited = await call('run_query', [`${def.qtype}.get`, query]);
  if (!pyTruthy(inherited)) return all;
  const theirs = pyIter(inherited);
  return pyIter(all).filter((m) => !theirs.some((t) => pyEquals(m, t)));
}

/** Salt's list-of-dicts to list-of-ids rewrite (a member's `applications`), in place. */
function adjustLists(obj: unknown): void {
  if (!isMapping(obj)) return;
  for (const [name, def] of Object.entries(TEMPLATE_PARTS)) {
    if (!def.adjust || !Object.hasOwn(obj, name)) continue;
    obj[name] = pyIter(obj[name]).map((m) => subscript(m, idKeyOf(def)));
  }
}

/** The id field of a part's members as Salt's adjusting names it (its `qidname`). */
const idKeyOf = (def: TemplatePart): string => (def.qtype === 'application' ? 'applicationid' : '');

const setKey = (obj: unknown, key: string, value: unknown): void => {
  if (!isMapping(obj))
    throw pythonError('AttributeError', `'${pyShortTypeName(obj)}' object has no attribute 'update'`);
  obj[key] = value;
};

/** What one part's sync needs. */
export interface PartSync {
  readonly call: ZabbixCall;
  readonly mapper: Dict;
  readonly test: boolean;
  readonly changes: TemplateChange[];
}

/** Salt's `_manage_component`: creates, deletes and updates a part's members to match `defined`. */
export async function syncPart(
  s: PartSync,
  component: string,
  parentId: unknown,
  defined: unknown,
  existing: unknown,
  templateId?: unknown,
): Promise<void> {
  const def = part(component);
  const key = def.filter;
  const wanted = pyIter(defined);
  const have = pyIter(existing);
  const wantedKeys = wanted.map((m) => pyStr(subscript(m, key)));
  const haveKeys = have.map((m) => pyStr(subscript(m, key)));
  const keyOf = (m: unknown): string => pyStr(subscript(m, key));
  for (const params of wanted.filter((m) => !haveKeys.includes(keyOf(m)))) {
    if (pyTruthy(parentId)) setKey(params, def.pidRefName ?? 'null', parentId);
    if (def.pidRefName2) setKey(params, def.pidRefName2, templateId);
    adjustLists(params);
    if (s.test) {
      s.changes.push({ component, action: 'create' });
      continue;
    }
    const created = await s.call('run_query', [`${def.qtype}.create`, params]);
    if (!pyTruthy(created)) continue;
    subscript(created, String(def.resIdName));
    s.changes.push({ component, action: 'create' });
  }
  const idName = String(s.mapper[def.qtype]);
  for (const gone of have.filter((m) => !wantedKeys.includes(keyOf(m)))) {
    const id = subscript(gone, idName);
    s.changes.push({ component, action: 'delete' });
    if (!s.test) await s.call('run_query', [`${def.qtype}.delete`, [id]]);
  }
  const both = [...new Set(wantedKeys.filter((k) => haveKeys.includes(k)))];
  for (const name of both) {
    const ditem = wanted.find((m) => keyOf(m) === name);
    const eitem = have.find((m) => keyOf(m) === name);
    const diff = subscript(await s.call('compare_params', [ditem, eitem, true]), 'new');
    if (!pyTruthy(diff)) continue;
    setKey(diff, idName, subscript(eitem, idName));
    adjustLists(diff);
    s.changes.push({ component, action: 'update' });
    if (!s.test) await s.call('run_query', [`${def.qtype}.update`, diff]);
  }
}
