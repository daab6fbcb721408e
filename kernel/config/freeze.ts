/**
 * Deep immutability for the resolved config: parsed once, frozen, passed around read-only.
 */

/** A read-only view of `T`, all the way down; functions stay callable. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer U)[]
    ? readonly DeepReadonly<U>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

/**
 * Freezes `value` and everything reachable from it, except the objects under the keys in
 * `opaque` (their container is frozen, their items are not: plugin instances keep their state).
 */
export function deepFreeze<T>(value: T, opaque: ReadonlySet<string> = new Set()): DeepReadonly<T> {
  freezeInto(value, opaque, new WeakSet(), true);
  return value as DeepReadonly<T>;
}

function freezeInto(value: unknown, opaque: ReadonlySet<string>, seen: WeakSet<object>, top: boolean): void {
  if (typeof value !== 'object' || value === null || seen.has(value)) return;
  seen.add(value);
  Object.freeze(value);
  for (const [key, child] of Object.entries(value)) {
    if (top && opaque.has(key)) {
      if (typeof child === 'object' && child !== null) Object.freeze(child);
      continue;
    }
    freezeInto(child, opaque, seen, false);
  }
}
