/**
 * `extend` and `exclude` applied to high data (Salt's `State.reconcile_extend`,
 * `apply_exclude` and the `find_name` lookup): an extension replaces or adds arguments of an
 * id (requisite lists are appended to), may name the id by its `name:`; an id or SLS (glob)
 * excluded is removed. "Cannot extend ID ..." names the env and SLS of the extension.
 */
import { REQUISITE_KEYWORDS } from '../keywords.js';
import type { HighData } from '../types.js';
import { type Dict, firstKey, fnmatch, isDict } from './py.js';

/**
 * `find_name`: the `(id, state)` pairs `name` refers to: the id itself, every id of an SLS
 * when `state` is `sls`, else each id of that state whose `name:` argument is `name`.
 */
export function findName(name: unknown, state: string, high: Dict, strict = false): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const key = String(name);
  const body = high[key];
  const check2 = strict ? isDict(body) && state in body : true;
  if (typeof name === 'string' && name in high && check2) {
    out.push([key, state]);
    return out;
  }
  if (state === 'sls') {
    for (const [nid, item] of Object.entries(high)) {
      if (isDict(item) && item.__sls__ === name) out.push([nid, firstKey(item) ?? '']);
    }
    return out;
  }
  for (const [nid, item] of Object.entries(high)) {
    if (!isDict(item) || !Array.isArray(item[state])) continue;
    for (const arg of item[state] as unknown[]) {
      if (!isDict(arg) || Object.keys(arg).length !== 1) continue;
      if (arg[firstKey(arg)!] === name) out.push([nid, state]);
    }
  }
  return out;
}

function slsExcludes(high: Dict): unknown[] {
  const out: unknown[] = [];
  for (const e of Array.isArray(high.__exclude__) ? high.__exclude__ : []) {
    if (typeof e === 'string') out.push(e);
    else if (isDict(e) && e.sls) out.push(e.sls);
  }
  return out;
}

/** Merges one extension's state run into the id's. */
function extendRun(target: unknown[], run: unknown[]): void {
  for (const arg of run) {
    let update = false;
    for (let i = 0; i < target.length; i++) {
      const val = target[i];
      if (typeof arg === 'string' && typeof val === 'string') {
        target[i] = arg;
        update = true;
        continue;
      }
      if (isDict(arg) && isDict(val)) {
        const first = firstKey(arg)!;
        if (first === firstKey(val)) {
          if (REQUISITE_KEYWORDS.has(first) && Array.isArray(val[first])) {
            (val[first] as unknown[]).push(...(Array.isArray(arg[first]) ? arg[first] : [arg[first]]));
          } else target[i] = arg;
          update = true;
        }
        if (first === 'name' && firstKey(target[i] as Dict) === 'names') target[i] = arg;
      }
    }
    if (!update) target.push(arg);
  }
}

/** `reconcile_extend`: `__extend__` applied to the ids (removed from `high`); the errors. */
export function reconcileExtend(high: HighData, strict = false): string[] {
  const h = high as Dict;
  const errors: string[] = [];
  if (!('__extend__' in h)) return errors;
  const ext = h.__extend__;
  delete h.__extend__;
  for (const chunk of Array.isArray(ext) ? ext : []) {
    if (!isDict(chunk)) continue;
    for (const [extName, rawBody] of Object.entries(chunk)) {
      if (!isDict(rawBody)) continue;
      const body = rawBody;
      let name = extName;
      const stateType = Object.keys(body).find((k) => !k.startsWith('__'));
      if (stateType === undefined) continue;
      const target = h[name];
      if (!isDict(target) || !(stateType in target)) {
        const ids = findName(name, stateType, h, strict);
        if (ids.length !== 1) {
          const env = body.__env__ ?? 'base';
          const sls = body.__sls__ ?? 'base';
          errors.push(
            `Cannot extend ID '${name}' in '${String(env)}:${String(sls)}'. It is not part of the high state.\nThis is likely due to a missing include statement or an incorrectly typed ID.\nEnsure that a state with an ID of '${name}' is available\nin environment '${String(env)}' and to SLS '${String(sls)}'`,
          );
          continue;
        }
        name = ids[0]![0];
      }
      if (slsExcludes(h).includes(body.__sls__)) continue;
      const into = h[name] as Dict;
      for (const [state, run] of Object.entries(body)) {
        if (state.startsWith('__')) continue;
        if (!(state in into)) {
          into[state] = run;
          continue;
        }
        if (Array.isArray(into[state]) && Array.isArray(run)) extendRun(into[state] as unknown[], run);
      }
    }
  }
  return errors;
}

/** `apply_exclude`: removes `__exclude__` and the ids it names (`id:`) or whose SLS matches (`sls:`, a glob). */
export function applyExclude(high: HighData): void {
  const h = high as Dict;
  if (!('__exclude__' in h)) return;
  const exclude = h.__exclude__;
  delete h.__exclude__;
  const exSls = new Set<string>();
  const exId = new Set<string>();
  for (const exc of Array.isArray(exclude) ? exclude : []) {
    if (typeof exc === 'string') exSls.add(exc);
    if (isDict(exc) && Object.keys(exc).length === 1) {
      if ('sls' in exc) exSls.add(String(exc.sls));
      else if ('id' in exc) exId.add(String(exc.id));
    }
  }
  if (exSls.size > 0) {
    for (const [name, body] of Object.entries(h)) {
      if (name.startsWith('__') || !isDict(body)) continue;
      const sls = typeof body.__sls__ === 'string' ? body.__sls__ : '';
      if (!sls) continue;
      for (const ex of exSls) if (fnmatch(ex, sls)) exId.add(name);
    }
  }
  for (const id of exId) delete h[id];
}
