/**
 * What Salt does to one rendered SLS before merging it (`BaseHighState._handle_extend`,
 * `_handle_exclude`, `_handle_state_decls`, `_handle_iorder` in `salt/state.py`): `extend`
 * and `exclude` move to `__extend__`/`__exclude__`, `file.managed: [...]` and the short
 * `pkg.installed` become `{file: [..., 'managed']}`, every id gets `__sls__`/`__env__`, and
 * with `state_auto_order` each declaration without `order` gets the next definition number.
 */
import { type Dict, firstKey, isDict, renameKey } from './py.js';

/** `extend:` → `__extend__` (a list of `{id: body}` dicts). */
export function handleExtend(state: Dict, sls: string, saltenv: string, errors: string[]): void {
  if (!('extend' in state)) return;
  const ext = state.extend;
  delete state.extend;
  if (!isDict(ext)) {
    errors.push(`Extension value in SLS '${sls}' is not a dictionary`);
    return;
  }
  for (const [name, body] of Object.entries(ext)) {
    if (!isDict(body)) {
      errors.push(`Extension name '${name}' in SLS '${sls}' is not a dictionary`);
      continue;
    }
    if (!('__sls__' in body)) body.__sls__ = sls;
    if (!('__env__' in body)) body.__env__ = saltenv;
    for (const key of Object.keys(body)) {
      if (key.startsWith('_') || !Array.isArray(body[key]) || !key.includes('.')) continue;
      const comps = key.split('.');
      (renameKey(body, key, comps[0]!) as unknown[]).push(comps[1]);
    }
  }
  const list = Array.isArray(state.__extend__) ? state.__extend__ : [];
  list.push(ext);
  state.__extend__ = list;
}

/** `exclude:` → `__exclude__`. */
export function handleExclude(state: Dict, sls: string, errors: string[]): void {
  if (!('exclude' in state)) return;
  const exc = state.exclude;
  delete state.exclude;
  const list = Array.isArray(state.__exclude__) ? state.__exclude__ : [];
  if (Array.isArray(exc)) list.push(...exc);
  else {
    errors.push(`Exclude Declaration in SLS ${sls} is not formed as a list`);
    // Python's list.extend of a str or dict: its characters or keys
    if (typeof exc === 'string') list.push(...exc);
    else if (isDict(exc)) list.push(...Object.keys(exc));
  }
  state.__exclude__ = list;
}

/** The state declaration forms → `{mod: [args..., fun]}`, plus `__sls__` and `__env__`. */
export function handleStateDecls(state: Dict, sls: string, saltenv: string, errors: string[]): void {
  for (const name of Object.keys(state)) {
    const body = state[name];
    if (!isDict(body)) {
      if (name === '__extend__' || name === '__exclude__') continue;
      if (typeof body === 'string' && body.includes('.')) {
        const comps = body.split('.');
        state[name] = { __sls__: sls, __env__: saltenv, [comps[0]!]: [comps[1]] };
        continue;
      }
      errors.push(`ID ${name} in SLS ${sls} is not a dictionary`);
      continue;
    }
    const skeys = new Set<string>();
    for (const key of Object.keys(body)) {
      if (key.startsWith('_') || !Array.isArray(body[key])) continue;
      if (key.includes('.')) {
        const comps = key.split('.');
        if (skeys.has(comps[0]!)) {
          errors.push(`ID '${name}' in SLS '${sls}' contains multiple state declarations of the same type`);
          continue;
        }
        (renameKey(body, key, comps[0]!) as unknown[]).push(comps[1]);
        skeys.add(comps[0]!);
        continue;
      }
      skeys.add(key);
    }
    if (!('__sls__' in body)) body.__sls__ = sls;
    if (!('__env__' in body)) body.__env__ = saltenv;
  }
}

/** Numbers definition order (Salt's `iorder`, from 10000, one counter per compile). */
export interface AutoOrder {
  enabled: boolean;
  next: number;
}

/** `_handle_iorder`: `{order: n}` appended to each declaration that has none. */
export function handleIorder(state: Dict, auto: AutoOrder): void {
  if (!auto.enabled) return;
  for (const name of Object.keys(state)) {
    const body = state[name];
    if (typeof body === 'string' || Array.isArray(body)) continue;
    // iterating anything else raises TypeError in Salt, which stops the numbering
    if (!isDict(body)) return;
    for (const dec of Object.keys(body)) {
      const run = body[dec];
      if (!Array.isArray(run) || dec.startsWith('_')) continue;
      const found = run.some((arg) => isDict(arg) && firstKey(arg) === 'order');
      if (!found) run.push({ order: auto.next++ });
    }
  }
}
