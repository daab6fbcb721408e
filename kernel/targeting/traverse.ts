/**
 * Salt's `traverse_dict_and_list`: walk nested maps and lists with a delimited key
 * (`foo:bar:0`). A list step takes a numeric index (negative counts from the end, as in Python)
 * or, for a name, the first map in the list that has that key.
 */

/** A plain map (not a list, not bytes, not null). */
export function isDict(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value); // bytes, a float, a datetime are values
  return proto === Object.prototype || proto === null;
}

const INT = /^\s*[+-]?\d+(?:_\d+)*\s*$/;

function hasKey(obj: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(obj, key);
}

/** The value at `key` in `data`, or `fallback` when some step does not exist. */
export function traverseDictAndList<T>(
  data: unknown,
  key: string | readonly string[],
  fallback: T,
  delimiter = ':',
): unknown {
  const steps = typeof key === 'string' ? key.split(delimiter) : key;
  let ptr: unknown = data;
  for (const step of steps) {
    if (Array.isArray(ptr)) {
      if (INT.test(step)) {
        const idx = Number.parseInt(step.replace(/_/g, ''), 10);
        const at = idx < 0 ? ptr.length + idx : idx;
        if (at < 0 || at >= ptr.length) return fallback;
        ptr = ptr[at];
      } else {
        const embedded = ptr.find((x): x is Record<string, unknown> => isDict(x) && hasKey(x, step));
        if (!embedded) return fallback;
        ptr = embedded[step];
      }
    } else if (isDict(ptr)) {
      if (!hasKey(ptr, step)) return fallback;
      ptr = ptr[step];
    } else return fallback;
  }
  return ptr;
}
