/**
 * Salt's `State.requisite_in`: the `_in` requisites (`require_in`, `watch_in`, `onfail_in`,
 * `onchanges_in`, `prereq_in`), `prereq`'s `prerequired` back-reference, and `use`/`use_in`
 * (another state's arguments copied in) turned into extensions of the ids they name, then
 * applied with `reconcile_extend(strict)`. `listen`/`listen_in` are left for the runtime, as
 * Salt 3006 does. `disabled_requisites` are skipped.
 */
import type { HighData } from '../types.js';
import { findName, reconcileExtend } from './extend.js';
import { type Dict, firstKey, isDict } from './py.js';

const REQ_IN = new Set([
  'require_in',
  'watch_in',
  'onfail_in',
  'onchanges_in',
  'use',
  'use_in',
  'prereq',
  'prereq_in',
]);
const REQ_IN_ALL = new Set([...REQ_IN, 'require', 'watch', 'onfail', 'onfail_stop', 'onchanges']);

type Extend = Map<string, Dict>;

function entry(extend: Extend, id: string): Dict {
  let e = extend.get(id);
  if (!e) {
    e = {};
    extend.set(id, e);
  }
  return e;
}

function runOf(e: Dict, state: string): unknown[] {
  if (!Array.isArray(e[state])) e[state] = [];
  return e[state] as unknown[];
}

/** `state_args`: the argument names of `high[id][state]`. */
function stateArgs(id: string, state: string, high: Dict): Set<string> {
  const out = new Set<string>();
  const body = high[id];
  if (!isDict(body) || !Array.isArray(body[state])) return out;
  for (const item of body[state] as unknown[]) {
    if (isDict(item) && Object.keys(item).length === 1) out.add(firstKey(item)!);
  }
  return out;
}

/** Adds `{rkey: [{state: id}]}` to the extension of `name`'s `_state` (appending to an existing `rkey`). */
function addReq(
  extend: Extend,
  name: string,
  reqState: string,
  rkey: string,
  from: [string, string],
  body: Dict,
): void {
  const e = entry(extend, name);
  const run = runOf(e, reqState);
  e.__env__ = body.__env__;
  e.__sls__ = body.__sls__;
  let found = false;
  for (const item of run) {
    if (isDict(item) && firstKey(item) === rkey) {
      (item[rkey] as unknown[]).push({ [from[0]]: from[1] });
      found = true;
    }
  }
  if (!found) run.push({ [rkey]: [{ [from[0]]: from[1] }] });
}

function dotError(rkey: string, state: string, name: unknown, sls: unknown): string {
  return `Invalid requisite in ${rkey}: ${state} for ${String(name)}, in SLS '${String(sls)}'. Requisites must not contain dots, did you mean '${state.slice(0, state.indexOf('.'))}'?`;
}

/** A bare string in a `_in` list: the id it names, or an id whose `name:` it is; undefined if none. */
function resolveBare(ind: unknown, high: Dict): Dict | undefined {
  const key = String(ind);
  const body = high[key];
  if (typeof ind === 'string' && isDict(body)) {
    const first = Object.keys(body).find((x) => !x.startsWith('__'));
    return first === undefined ? undefined : { [first]: ind };
  }
  let found: Dict | undefined;
  for (const [id, item] of Object.entries(high)) {
    if (!isDict(item)) continue;
    for (const st of Object.keys(item)) {
      if (st.startsWith('__') || !Array.isArray(item[st])) continue;
      for (const j of item[st] as unknown[])
        if (isDict(j) && 'name' in j && j.name === ind) found = { [st]: id };
    }
  }
  return found;
}

/** Copies the arguments of `from` (not requisites, `name`, `names`, or ones `skip` has) onto `into`. */
function copyArgs(into: unknown[], from: unknown, skip: Set<string>): void {
  for (const arg of Array.isArray(from) ? from : []) {
    if (!isDict(arg) || Object.keys(arg).length !== 1) continue;
    const k = firstKey(arg)!;
    if (REQ_IN_ALL.has(k) || skip.has(k) || k === 'name' || k === 'names') continue;
    into.push(arg);
  }
}

interface Origin {
  id: string;
  state: string;
  body: Dict;
  key: string;
  rkey: string;
}

function listForm(o: Origin, items: unknown[], high: Dict, extend: Extend, errors: string[]): void {
  const hinges: Array<[string, string]> = [];
  for (const raw of items) {
    let ind: unknown = raw;
    if (!isDict(ind)) {
      ind = resolveBare(ind, high);
      if (ind === undefined) continue;
    }
    const req = ind as Dict;
    if (Object.keys(req).length < 1) continue;
    let pstate = firstKey(req)!;
    const pname = req[pstate];
    if (pstate === 'sls') {
      hinges.length = 0;
      for (const [nid, item] of Object.entries(high)) {
        if (!isDict(item) || item.__sls__ !== pname) continue;
        for (const st of Object.keys(item)) if (!st.startsWith('__')) hinges.push([nid, st]);
      }
    } else hinges.push([String(pname), pstate]);
    if (pstate.includes('.')) {
      errors.push(dotError(o.rkey, pstate, pname, o.body.__sls__));
      pstate = pstate.split('.')[0]!;
    }
    for (const [name, reqState] of hinges) {
      if (o.key === 'prereq_in') {
        runOf(entry(extend, o.id), o.state).push({ prerequired: [{ [reqState]: name }] });
      }
      if (o.key === 'prereq') {
        for (const [extId, st] of findName(name, reqState, high, true)) {
          runOf(entry(extend, extId), st).push({ prerequired: [{ [o.state]: o.id }] });
        }
        continue;
      }
      if (o.key === 'use_in') {
        for (const [extId, st] of findName(name, reqState, high, true)) {
          if (!extId) continue;
          const skip = stateArgs(extId, reqState, high);
          copyArgs(runOf(entry(extend, extId), st), (high[o.id] as Dict)[o.state], skip);
        }
        continue;
      }
      if (o.key === 'use') {
        for (const [extId, st] of findName(name, reqState, high, true)) {
          if (!extId) continue;
          const skip = stateArgs(o.id, o.state, high);
          copyArgs(runOf(entry(extend, o.id), o.state), (high[extId] as Dict)[st], skip);
        }
        continue;
      }
      addReq(extend, name, reqState, o.rkey, [o.state, o.id], o.body);
    }
  }
}

/** `requisite_in`: the `_in`/`use`/`prereq` extensions applied to `high`; the errors. */
export function requisiteIn(high: HighData, disabled: readonly string[] = []): string[] {
  const h = high as Dict;
  const extend: Extend = new Map();
  const errors: string[] = [];
  for (const [id, body] of Object.entries(h)) {
    if (!isDict(body)) continue;
    for (const [state, run] of Object.entries(body)) {
      if (state.startsWith('__') || !Array.isArray(run)) continue;
      for (const arg of run) {
        if (!isDict(arg) || Object.keys(arg).length < 1) continue;
        const key = firstKey(arg)!;
        if (!REQ_IN.has(key) || disabled.includes(key)) continue;
        const rkey = key.split('_')[0]!;
        const items = arg[key];
        if (isDict(items)) {
          for (const [rawState, name] of Object.entries(items)) {
            let reqState = rawState;
            entry(extend, String(name));
            if (reqState.includes('.')) {
              errors.push(dotError(rkey, reqState, name, body.__sls__));
              reqState = reqState.split('.')[0]!;
            }
            addReq(extend, String(name), reqState, rkey, [state, id], body);
          }
        }
        if (Array.isArray(items)) listForm({ id, state, body, key, rkey }, items, h, extend, errors);
      }
    }
  }
  h.__extend__ = [...extend].map(([k, v]) => ({ [k]: v }));
  errors.push(...reconcileExtend(high, true));
  return errors;
}
