/**
 * Loading Salt's golden vectors (`../shared/salt-vectors` beside the repository) and moving
 * between their tagged JSON (see the vectors' README, "Tagged JSON") and JS values.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { SaltConstant, SaltDatetime, SaltFloat } from '../../kernel/serial/index.js';

function findRepoRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}

/** The repository root (the folder holding package.json). */
export const REPO_ROOT: string = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
/** Where the vector files are: `shared/salt-vectors` beside the repository. */
export const SALT_VECTORS_DIR: string = resolve(REPO_ROOT, '../shared/salt-vectors');

/** Parses one vector file; `name` with or without `.json` (`loadVectors('msgpack')`). */
export function loadVectors(name: string): unknown {
  const file = join(SALT_VECTORS_DIR, name.endsWith('.json') ? name : `${name}.json`);
  if (!existsSync(file)) {
    throw new Error(`Salt golden vectors not found at ${file}: shared/ must sit beside the repository`);
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** A blob object of the vector files (`{b64, length, ...}`). */
export interface Blob {
  b64: string;
  length?: number;
  content?: string;
  decoder?: string;
  decoded?: unknown;
  [field: string]: unknown;
}

/** The bytes of a blob object; checks `length` when present. */
export function blob(b: unknown): Buffer {
  const o = b as Blob;
  if (typeof o !== 'object' || o === null || typeof o.b64 !== 'string') {
    throw new Error(`not a blob object: ${JSON.stringify(b)?.slice(0, 80)}`);
  }
  const bytes = Buffer.from(o.b64, 'base64');
  if (typeof o.length === 'number' && bytes.length !== o.length) {
    throw new Error(`blob length ${bytes.length} differs from the recorded ${o.length}`);
  }
  return bytes;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The single `$tag` of a tagged JSON node, or undefined for a plain object. */
function tagOf(v: Record<string, unknown>): string | undefined {
  const keys = Object.keys(v);
  return keys.length === 1 && keys[0]?.startsWith('$') ? keys[0] : undefined;
}

function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function datetimeOf(text: string): SaltDatetime {
  const dt = SaltDatetime.parseIso(text);
  if (!dt) throw new Error(`bad $datetime/$date ${text}`);
  return dt;
}

/**
 * Tagged JSON → the JS value to hand to the packers: `$bytes` → Buffer, `$int` → bigint,
 * `$float` → {@link SaltFloat} (so integral floats still pack as float 64), `$map` → Map,
 * `$tuple` → array, `$set` → Set, `$date`/`$datetime` → {@link SaltDatetime},
 * `$constant` → {@link SaltConstant}, objects → plain objects in the same key order.
 */
export function fromTagged(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromTagged);
  if (!isObj(v)) return v;
  const t = tagOf(v);
  const x = t === undefined ? undefined : v[t];
  switch (t) {
    case '$bytes':
      return Buffer.from(x as string, 'base64');
    case '$int':
      return BigInt(x as string);
    case '$float':
      return new SaltFloat(x as number);
    case '$map':
      return new Map((x as [unknown, unknown][]).map(([k, val]) => [fromTagged(k), fromTagged(val)]));
    case '$tuple':
      return (x as unknown[]).map(fromTagged);
    case '$set':
      return new Set((x as unknown[]).map(fromTagged));
    case '$date':
      return datetimeOf(`${x as string}T00:00:00.000000`);
    case '$datetime':
      return datetimeOf(x as string);
    case '$constant': {
      const c = x as { name: string; value: unknown };
      return new SaltConstant(c.name, fromTagged(c.value));
    }
    default: {
      const out: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(v)) setOwn(out, k, fromTagged(val));
      return out;
    }
  }
}

/** Options of the comparable forms. */
export interface ComparableOptions {
  /**
   * Keep integral floats apart from ints (for values decoded with `exactFloats`). Default
   * `false`: `{"$float": 1.0}` and the JS number `1` compare equal, the one lossy point of
   * decoding into JS numbers.
   */
  exactFloats?: boolean;
}

/**
 * A normalized tagged-JSON form for comparing values: every map (plain object or Map)
 * becomes `{$map: [[k, v], ...]}` so key order counts; text stays a string and bytes
 * `{$bytes}`; ints are numbers (or `{$int}` beyond 2^53−1); floats `{$float}` (integral
 * ones as numbers unless `exactFloats`); tuples and sets become arrays, dates datetimes.
 */
export function toComparable(js: unknown, options: ComparableOptions = {}): unknown {
  const exact = options.exactFloats === true;
  const num = (n: number, isFloat: boolean): unknown =>
    Number.isInteger(n) && !Object.is(n, -0) && !(isFloat && exact) ? n : { $float: n };
  const walk = (v: unknown): unknown => {
    if (v === null || v === undefined) return null;
    if (typeof v === 'number') return num(v, false);
    if (typeof v === 'bigint') return Number.isSafeInteger(Number(v)) ? Number(v) : { $int: v.toString() };
    if (typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(walk);
    if (v instanceof Uint8Array)
      return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') };
    if (v instanceof SaltFloat) return num(v.value, true);
    if (v instanceof SaltDatetime) return { $datetime: v.toISOString() };
    if (v instanceof Date) return { $datetime: (SaltDatetime.fromDate(v) as SaltDatetime).toISOString() };
    if (v instanceof SaltConstant) return { $constant: { name: v.name, value: walk(v.value) } };
    if (v instanceof Set) return [...v].map(walk);
    const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
    return { $map: entries.map(([k, val]) => [walk(k), walk(val)]) };
  };
  return walk(js);
}

/** The same normalized form as {@link toComparable}, made from the vectors' tagged JSON. */
export function taggedComparable(tagged: unknown, options: ComparableOptions = {}): unknown {
  const exact = options.exactFloats === true;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v)) return v;
    const t = tagOf(v);
    const x = t === undefined ? undefined : v[t];
    switch (t) {
      case '$bytes':
      case '$int':
        return v;
      case '$float': {
        const n = x as number;
        return Number.isInteger(n) && !Object.is(n, -0) && !exact ? n : { $float: n };
      }
      case '$map':
        return { $map: (x as [unknown, unknown][]).map(([k, val]) => [walk(k), walk(val)]) };
      case '$tuple':
      case '$set':
        return (x as unknown[]).map(walk);
      case '$date':
        return { $datetime: `${x as string}T00:00:00.000000` };
      case '$datetime':
        return v;
      case '$constant': {
        const c = x as { name: string; value: unknown };
        return { $constant: { name: c.name, value: walk(c.value) } };
      }
      default:
        return { $map: Object.entries(v).map(([k, val]) => [k, walk(val)]) };
    }
  };
  return walk(tagged);
}

/** Asserts that a decoded JS value equals a tagged JSON value (str vs bytes and key order count). */
export function expectTaggedEqual(actual: unknown, tagged: unknown, options: ComparableOptions = {}): void {
  expect(toComparable(actual, options)).toEqual(taggedComparable(tagged, options));
}
