/**
 * Arrays Python would hold as tuples (`test.arg`'s `args`). A function marks one with
 * {@link asPyTuple}: JSON, YAML, nested and msgpack see a plain list, as Salt's serializers turn
 * a tuple into one (the mark, a symbol-keyed property, is on no wire), while the outputters that
 * print Python's repr (`pprint`, `txt`, `raw`) and the `local` returner read it through
 * {@link withPyTuples} and show `('a', 1)`, as Salt's do.
 */
import { PyTuple } from '../kernel/python/index.js';

const PY_TUPLE = Symbol.for('tsalt.py.tuple');

/** `items`, marked as a Python tuple (the same array). */
export function asPyTuple<T>(items: T[]): T[] {
  return Object.assign(items, { [PY_TUPLE]: true });
}

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** `v` with each marked array as a {@link PyTuple}; what holds none is returned as it is. */
export function withPyTuples(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    const items = v.map(withPyTuples);
    if (PY_TUPLE in v) return new PyTuple(items);
    return items.some((x, i) => x !== v[i]) ? items : v;
  }
  if (!isPlain(v)) return v;
  let out: Record<string, unknown> | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = withPyTuples(x);
    if (y !== x) out ??= { ...(v as Record<string, unknown>) };
    if (out) out[k] = y;
  }
  return out ?? v;
}
