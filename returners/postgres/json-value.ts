/**
 * Job data as JSON for external stores. Returns decoded from msgpack may hold what JSON (and
 * PostgreSQL's jsonb) cannot: bytes, bigints, non-finite numbers, and strings with NUL (jsonb
 * refuses `\u0000`). Those travel as one-key tagged objects (`{"$tsalt:bytes": "<base64>"}`)
 * and come back as the same values, while everything else stays plain, queryable JSON.
 */

const PREFIX = '$tsalt:';
const BYTES = `${PREFIX}bytes`;
const BIGINT = `${PREFIX}bigint`;
const NUMBER = `${PREFIX}number`;
const STRING = `${PREFIX}string`;
/** Wraps a real object that would otherwise read as a tag. */
const OBJECT = `${PREFIX}object`;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array)
  );
}

/** A JSON-safe copy of `value`: tagged where plain JSON would lose or refuse it. */
export function toJsonValue(value: unknown): unknown {
  if (typeof value === 'string')
    return value.includes('\u0000') ? { [STRING]: Buffer.from(value).toString('base64') } : value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : { [NUMBER]: String(value) };
  if (typeof value === 'bigint') return { [BIGINT]: value.toString() };
  if (value instanceof Uint8Array)
    return { [BYTES]: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
  if (Array.isArray(value)) return value.map(toJsonValue);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Map) return toJsonValue(Object.fromEntries(value));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || typeof item === 'function') continue;
      out[key.includes('\u0000') ? key.replaceAll('\u0000', '\uFFFD') : key] = toJsonValue(item);
    }
    const keys = Object.keys(out);
    return keys.length === 1 && keys[0]?.startsWith(PREFIX) ? { [OBJECT]: out } : out;
  }
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return null;
  return value;
}

/** The value {@link toJsonValue} was given (bytes come back as Buffers). */
export function fromJsonValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(fromJsonValue);
  if (!isPlainObject(value)) return value;
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const key = keys[0] as string;
    const tagged = value[key];
    if (key === BYTES && typeof tagged === 'string') return Buffer.from(tagged, 'base64');
    if (key === BIGINT && typeof tagged === 'string') return BigInt(tagged);
    if (key === NUMBER && typeof tagged === 'string') return Number(tagged);
    if (key === STRING && typeof tagged === 'string') return Buffer.from(tagged, 'base64').toString();
    if (key === OBJECT && isPlainObject(tagged)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(tagged)) out[k] = fromJsonValue(v);
      return out;
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = fromJsonValue(item);
  return out;
}

/** JSON text of `value` (see {@link toJsonValue}). */
export function encodeJson(value: unknown): string {
  return JSON.stringify(toJsonValue(value));
}

/** The value of JSON text written by {@link encodeJson}. */
export function decodeJson(text: string): unknown {
  return fromJsonValue(JSON.parse(text));
}
