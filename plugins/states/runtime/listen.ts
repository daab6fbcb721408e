/**
 * The `listen` requisite (Salt's `State.call_listen` in `salt/state.py`): after every chunk
 * ran, each chunk that listens to one that changed runs its module's `mod_watch` as
 * `listener_<id>`; a `listen` naming a missing state gives a `Listen_Error` result.
 */
import { REQUISITE_KEYWORDS } from '../keywords.js';
import type { Entry, Low, Run, Running } from './run-state.js';
import { genTag, listenErrorTag } from './tag.js';

type Ref = readonly [state: string, id: string, name: string];

/** Salt's `lval in cref`: the value is one of the tuple's members. */
function refHas(ref: Ref, state: string, value: unknown): boolean {
  return ref[0] === state && ref.includes(String(value));
}

function listenError(state: string, id: unknown): [string, Entry] {
  return [
    listenErrorTag(state, String(id)),
    {
      comment: `Referenced state ${state}: ${String(id)} does not exist`,
      name: `listen_${state}:${String(id)}`,
      result: false,
      changes: {},
    },
  ];
}

/** The `mod_watch` chunks to run and the errors, from the listeners and what changed. */
function watchers(chunks: readonly Low[], running: Running): { lows: Low[]; errors: Map<string, Entry> } {
  const refs = new Map<Ref, Low>();
  const listeners: [Ref, unknown[]][] = [];
  for (const chunk of chunks) {
    const ref: Ref = [chunk.state, chunk.__id__, String(chunk.name)];
    refs.set(ref, chunk);
    if ('listen' in chunk) listeners.push([ref, [chunk.listen].flat()]);
    for (const lin of 'listen_in' in chunk ? [chunk.listen_in].flat() : []) {
      for (const [key, val] of Object.entries((lin ?? {}) as Record<string, unknown>)) {
        listeners.push([[key, String(val), 'lookup'], [{ [chunk.state]: chunk.__id__ }]]);
      }
    }
  }
  const lows: Low[] = [];
  const errors = new Map<string, Entry>();
  for (const [key, targets] of listeners) {
    for (let target of targets) {
      if (!target || typeof target !== 'object') {
        let hit = false;
        for (const chunk of chunks) {
          if (chunk.__id__ === target || chunk.name === target) {
            target = { [chunk.state]: chunk.__id__ };
            hit = true;
          }
        }
        if (!hit) continue;
      }
      for (const [lkey, lval] of Object.entries(target as Record<string, unknown>)) {
        const hits = [...refs].filter(([ref]) => refHas(ref, lkey, lval));
        if (hits.length === 0) {
          errors.set(...listenError(lkey, lval));
          continue;
        }
        for (const [, data] of hits) {
          const changed = running[genTag(data)];
          if (!changed || Object.keys(changed.changes ?? {}).length === 0) continue;
          const own = [...refs].filter(([ref]) => refHas(ref, key[0], key[1]));
          if (own.length === 0) {
            errors.set(...listenError(key[0], key[1]));
            continue;
          }
          for (const [, chunk] of own) {
            const low: Low = {
              ...chunk,
              sfun: chunk.fun,
              fun: 'mod_watch',
              __id__: `listener_${chunk.__id__}`,
            };
            for (const req of REQUISITE_KEYWORDS) delete low[req];
            lows.push(low);
          }
        }
      }
    }
  }
  return { lows, errors };
}

/** Salt's `call_listen`: runs the listeners' `mod_watch` through `callChunks` and adds the errors. */
export async function callListen(
  run: Run,
  chunks: readonly Low[],
  running: Running,
  callChunks: (run: Run, chunks: Low[]) => Promise<Running>,
): Promise<Running> {
  const { lows, errors } = watchers(chunks, running);
  Object.assign(running, await callChunks(run, lows));
  for (const [tag, entry] of errors) {
    entry.__run_num__ = run.nextRunNum();
    running[tag] = entry;
  }
  return running;
}
