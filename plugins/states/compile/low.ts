/**
 * High data to ordered low chunks (Salt's `State.compile_high_data` and `order_chunks`, run
 * after `reconcile_extend`, `verify_high`, `requisite_in` and `apply_exclude` as
 * `State.call_high` does): one chunk per id, state and name (`names` expands, a `names`
 * entry `{name: [{arg: v}]}` adds arguments), `order` resolved (`first` 0, `last` and
 * negatives after everything, none: after the highest number + 100), sorted by order then
 * `state + name + fun`. Key order is Salt's: state, name, __sls__, __env__, __id__, args, fun.
 */
import type { HighData, LowChunk } from '../types.js';
import { applyExclude, reconcileExtend } from './extend.js';
import { type Dict, deepCopy, isDict } from './py.js';
import { requisiteIn } from './requisite-in.js';
import { verifyHigh } from './verify.js';

/** `compile_high_data`: the chunks of `high`, ordered. */
export function compileHighData(high: HighData): LowChunk[] {
  const chunks: Dict[] = [];
  for (const [id, body] of Object.entries(high as Dict)) {
    if (id.startsWith('__') || !isDict(body)) continue;
    for (const [state, run] of Object.entries(body)) {
      if (state.startsWith('__') || !Array.isArray(run)) continue;
      const funcs: string[] = [];
      const names: unknown[] = [];
      const chunk: Dict = { state, name: id };
      if ('__sls__' in body) chunk.__sls__ = body.__sls__;
      if ('__env__' in body) chunk.__env__ = body.__env__;
      chunk.__id__ = id;
      for (const arg of run) {
        if (typeof arg === 'string') {
          if (!funcs.includes(arg)) funcs.push(arg);
          continue;
        }
        if (!isDict(arg)) continue;
        for (const [key, val] of Object.entries(arg)) {
          if (key === 'names') {
            for (const n of Array.isArray(val) ? val : []) if (!names.some((x) => pyIn(x, n))) names.push(n);
          } else if (key === 'state') {
            // a state override is not passed down
          } else if (key === 'name' && typeof val !== 'string') chunk[key] = id;
          else chunk[key] = val;
        }
      }
      if (names.length > 0) {
        let nameOrder = 1;
        for (const entry of names) {
          const live = deepCopy(chunk);
          if (isDict(entry)) {
            const lowName = Object.keys(entry)[0]!;
            live.name = lowName;
            const extra = entry[lowName];
            for (const item of Array.isArray(extra) ? extra : [])
              if (isDict(item)) Object.assign(live, deepCopy(item));
          } else live.name = entry;
          live.name_order = nameOrder++;
          for (const fun of funcs) chunks.push({ ...live, fun });
        }
      } else {
        for (const fun of funcs) chunks.push({ ...deepCopy(chunk), fun });
      }
    }
  }
  return orderChunks(chunks as LowChunk[]);
}

/** Python's `x == y` for `names` entries (strings mostly). */
function pyIn(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** `order_chunks`: `order` made a number on every chunk, then the chunks sorted. */
export function orderChunks(chunks: LowChunk[]): LowChunk[] {
  let cap = 1;
  for (const c of chunks) {
    if (!('order' in c) || !Number.isInteger(c.order)) continue;
    const o = c.order as number;
    if (o > cap - 1 && o > 0) cap = o + 100;
  }
  for (const c of chunks) {
    if (!('order' in c)) {
      c.order = cap;
      continue;
    }
    if (typeof c.order !== 'number') {
      if (c.order === 'last') c.order = cap + 1000000;
      else if (c.order === 'first') c.order = 0;
      else c.order = cap;
    }
    if ('name_order' in c) {
      c.order = (c.order as number) + Number(c.name_order) / 10000.0;
      delete c.name_order;
    }
    if ((c.order as number) < 0) c.order = cap + 1000000 + (c.order as number);
  }
  const sortKey = (c: LowChunk) => `${String(c.state)}${String(c.name)}${String(c.fun)}`;
  return chunks.sort((a, b) => {
    const d = (a.order as number) - (b.order as number);
    if (d !== 0) return d;
    const ka = sortKey(a);
    const kb = sortKey(b);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
}

export interface HighToLowOptions {
  /**
   * Salt's `state_auto_order`. Salt numbers declarations when it renders SLS files
   * (`compileSls`/`compileHighstate` take it); high data given here is compiled as it is.
   */
  stateAutoOrder?: boolean;
  /**
   * Only `compile_high_data`, without extend, requisite_in and exclude (what
   * `state.show_low_sls` shows).
   */
  raw?: boolean;
  /** Salt's `disabled_requisites`: `_in`/`use`/`prereq` kinds not applied. */
  disabledRequisites?: readonly string[];
}

/**
 * `State.call_high` up to the run: extend, verify, requisite_in, exclude, then the ordered low
 * chunks; with errors (Salt's strings) the chunks are empty. `high` is not modified.
 */
export function highToLow(
  high: HighData,
  o: HighToLowOptions = {},
): { chunks: LowChunk[]; errors: string[] } {
  const data = deepCopy(high);
  if (o.raw) return { chunks: compileHighData(data), errors: [] };
  const errors = reconcileExtend(data);
  errors.push(...verifyHigh(data));
  if (errors.length > 0) return { chunks: [], errors };
  errors.push(...requisiteIn(data, o.disabledRequisites));
  applyExclude(data);
  if (errors.length > 0) return { chunks: [], errors };
  return { chunks: compileHighData(data), errors };
}
