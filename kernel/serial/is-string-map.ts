/**
 * Whether a decoded msgpack value is a map with string keys (a plain object), as loads,
 * envelopes and returns must be; bytes, arrays and `Map`s (non-string keys) are not.
 */
export function isStringMap(v: unknown): v is Record<string, unknown> {
  return (
    typeof v === 'object' &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Uint8Array) &&
    !(v instanceof Map) &&
    !(v instanceof Set)
  );
}
