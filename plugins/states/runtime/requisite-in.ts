/**
 * The `_in` requisites of chunks that still carry them (Salt's `State.requisite_in` in
 * `salt/state.py`, which `state.show_lowstate` does not apply): `require_in`, `watch_in`,
 * `onchanges_in`, `onfail_in` and `prereq_in` on a chunk become `require`, `watch`, ... on the
 * chunks they name, and each `prereq` gives its targets a `prerequired` back-reference. A
 * requisite already there (the compiler applied them) is not added twice; `listen_in` stays,
 * `call_listen` reads it.
 */
import type { Low } from './run-state.js';

const IN_KEYS = ['require_in', 'watch_in', 'onchanges_in', 'onfail_in', 'prereq_in'];

/** The chunks an `_in` item names: an id (or a name), `{state: id}` (or its name when no id matches), `{sls: name}` (Salt's `find_name`/`find_sls_ids`). */
function targetsOf(item: unknown, chunks: readonly Low[]): Low[] {
  if (typeof item === 'string') {
    const byId = chunks.filter((c) => c.__id__ === item);
    return byId.length > 0 ? byId : chunks.filter((c) => c.name === item);
  }
  if (!item || typeof item !== 'object' || Array.isArray(item)) return [];
  const out: Low[] = [];
  for (const [key, value] of Object.entries(item as Record<string, unknown>)) {
    const state = key.split('.')[0];
    if (state === 'sls') out.push(...chunks.filter((c) => c.__sls__ === value));
    else {
      // the id when one has this state (reconcile_extend), else the states of that name
      const byId = chunks.filter((c) => c.state === state && c.__id__ === value);
      out.push(...(byId.length > 0 ? byId : chunks.filter((c) => c.state === state && c.name === value)));
    }
  }
  return out;
}

function addRequisite(target: Low, kind: string, req: Record<string, string>): void {
  const list = Array.isArray(target[kind]) ? (target[kind] as unknown[]) : target[kind] ? [target[kind]] : [];
  const [[state, id] = ['', '']] = Object.entries(req);
  const there = list.some((r) =>
    typeof r === 'string'
      ? r === id
      : r && typeof r === 'object' && (r as Record<string, unknown>)[state] === id,
  );
  if (!there) list.push(req);
  target[kind] = list;
}

/** Adds the requisites the chunks' `_in` forms and `prereq`s imply, in place. */
export function applyRequisiteIn(chunks: Low[]): void {
  const resolved = chunks.some((c) => 'prerequired' in c);
  for (const source of chunks) {
    for (const key of IN_KEYS) {
      if (!(key in source)) continue;
      const kind = key.slice(0, -3);
      const given = source[key];
      const items = Array.isArray(given)
        ? given
        : given && typeof given === 'object'
          ? Object.entries(given).map(([k, v]) => ({ [k]: v }))
          : [given];
      for (const item of items) {
        for (const target of targetsOf(item, chunks))
          addRequisite(target, kind, { [source.state]: source.__id__ });
      }
    }
  }
  // each prereq target learns who waits on it, unless the compiler already said so
  if (resolved) return;
  for (const source of chunks) {
    for (const item of 'prereq' in source ? [source.prereq].flat() : []) {
      for (const target of targetsOf(item, chunks))
        addRequisite(target, 'prerequired', { [source.state]: source.__id__ });
    }
  }
}
