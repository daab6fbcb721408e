/**
 * Python's value semantics as Jinja2 sees them (Salt's templates run on Jinja2 over Python
 * data): truthiness, `str()`, `repr()`, equality, ordering, membership, and Jinja's
 * StrictUndefined (Salt renders with it: using a missing value is an error, only `default` and
 * `is defined` may touch it). Also the engine's callable values: functions and macros.
 */

import { isFloat, isNumber, numStr, numValue } from './numbers.js';

/** A missing value; `why` is the message of the error raised when it is used. */
export class Undefined {
  /**
   * `soft`: Jinja's lenient Undefined, what `x if c` without `else` gives even under Salt's
   * StrictUndefined: it prints as '', is false and iterates as empty.
   */
  constructor(
    readonly why: string,
    readonly soft = false,
  ) {}
}

/** An error in a template; `line`/`column` are 1-based (0 when not known yet). */
export class TemplateError extends Error {
  column = 0;
  /** The template the error is in (set by the innermost template that sees it). */
  path?: string;
  source?: string;
  /** Includes/imports that led to `path`, outermost first. */
  chain?: readonly string[];
  /** What kind of failure: a syntax error, a bound, or anything else at run time. */
  kind: 'syntax' | 'limit' | 'missing' | 'runtime' = 'runtime';
  constructor(
    message: string,
    public line = 0,
  ) {
    super(message);
  }
}

/** A mapping that can also be called (`loop(items)`): its call target under this key. */
export const CALLABLE = Symbol('callable');

/** A function templates can call: `(args, kwargs)` → a value or a promise of one. */
export class JinjaFunction {
  constructor(
    readonly name: string,
    readonly impl: (args: unknown[], kwargs: Record<string, unknown>) => unknown,
  ) {}
}

/** Plain data mappings only (no class instances such as functions or macros). */
export function isMap(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Throws when `value` is undefined (StrictUndefined); returns it otherwise. */
export function defined<T>(value: T | Undefined): T {
  if (value instanceof Undefined) throw new TemplateError(value.why);
  return value;
}

export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (isNumber(value)) return isFloat(value) ? 'float' : 'int';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Uint8Array) return 'bytes';
  if (value instanceof Undefined) return 'Undefined';
  if (isMap(value)) return 'dict';
  return (value as { typeName?: string }).typeName ?? 'function';
}

export function truthy(value: unknown): boolean {
  if (value instanceof Undefined && value.soft) return false;
  const v = defined(value);
  if (v === null || v === undefined) return false;
  if (typeof v === 'boolean') return v;
  if (isNumber(v)) return numValue(v) !== 0 && !Number.isNaN(numValue(v));
  if (typeof v === 'string' || Array.isArray(v)) return v.length > 0;
  if (v instanceof Uint8Array) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else out += ch;
  }
  return `${quote}${out}${quote}`;
}

/** Python's `repr()` of bytes: printable ASCII as is, the rest as `\xNN`. */
function reprBytes(b: Uint8Array): string {
  const text = Buffer.from(b).toString('latin1');
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = '';
  for (const c of b) {
    const ch = String.fromCharCode(c);
    if (ch === '\\' || ch === quote) out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else out += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return `b${quote}${out}${quote}`;
}

const TUPLE = Symbol('tuple');

/** Marks a list as a Python tuple (printed `(a, b)`), what `dictsort` and regex groups give. */
export function tuple<T>(items: T[]): T[] {
  Object.defineProperty(items, TUPLE, { value: true });
  return items;
}

const FIELDS = Symbol('fields');

/** A tuple whose items are also attributes (Python's namedtuple: `groupby`'s `grouper`/`list`). */
export function namedTuple<T>(items: T[], names: readonly string[]): T[] {
  Object.defineProperty(items, FIELDS, { value: names });
  return tuple(items);
}

/** Python's `repr()`. */
export function repr(value: unknown): string {
  if (value instanceof Undefined) return 'Undefined';
  const v = value;
  if (typeof v === 'string') return reprString(v);
  if (Array.isArray(v) && (v as { [TUPLE]?: boolean })[TUPLE])
    return `(${v.map(repr).join(', ')}${v.length === 1 ? ',' : ''})`;
  if (Array.isArray(v)) return `[${v.map(repr).join(', ')}]`;
  if (isMap(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${reprString(k)}: ${repr(x)}`)
      .join(', ')}}`;
  return str(v);
}

/** Python's `str()`, what `{{ value }}` prints. */
export function str(value: unknown): string {
  if (value instanceof Undefined && value.soft) return '';
  const v = defined(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (isNumber(v)) return numStr(v);
  if (v instanceof Uint8Array) return reprBytes(v);
  // Salt's printed mapping (PrintableDict) quotes strings and prints other values with str()
  if (isMap(v))
    return `{${Object.entries(v)
      .map(([k, x]) => `${reprString(k)}: ${typeof x === 'string' ? reprString(x) : str(x)}`)
      .join(', ')}}`;
  return repr(v);
}

/** Python's `==`: deep for lists and mappings; `1 == 1.0`; booleans are not numbers here. */
export function equal(a: unknown, b: unknown): boolean {
  if (a instanceof Undefined || b instanceof Undefined) return a === b;
  if (a === b) return true;
  if (isNumber(a) && isNumber(b)) return numValue(a) === numValue(b);
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i]));
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && equal(a[k], b[k]));
  }
  return false;
}

/**
 * Python's ordering: numbers (bools among them) with numbers, strings with strings, lists and
 * tuples item by item then by length (`grains.saltversioninfo >= [2018, 3, 1]`); else an error.
 */
export function compare(a: unknown, b: unknown, op: string): number {
  const x = defined(a);
  const y = defined(b);
  const num = (v: unknown) => isNumber(v) || typeof v === 'boolean';
  if (num(x) && num(y)) return numValue(x as number | boolean) - numValue(y as number | boolean);
  if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : x > y ? 1 : 0;
  if (Array.isArray(x) && Array.isArray(y)) {
    for (let i = 0; i < Math.min(x.length, y.length); i++)
      if (!equal(x[i], y[i])) return compare(x[i], y[i], op);
    return x.length - y.length;
  }
  throw new TemplateError(`'${op}' not supported between instances of '${typeName(x)}' and '${typeName(y)}'`);
}

/** Python's `in`: substring, list membership, mapping key. */
export function contains(container: unknown, item: unknown): boolean {
  const c = defined(container);
  const i = defined(item);
  if (typeof c === 'string') {
    if (typeof i !== 'string')
      throw new TemplateError(`'in <string>' requires string as left operand, not ${typeName(i)}`);
    return c.includes(i);
  }
  if (Array.isArray(c)) return c.some((x) => equal(x, i));
  if (isMap(c)) return typeof i === 'string' && Object.hasOwn(c, i);
  throw new TemplateError(`argument of type '${typeName(c)}' is not iterable`);
}

/** What `for x in value` walks: list items, mapping keys, string characters. */
/**
 * The keys a Jinja dict literal was given that are not strings (`{False: x}`, `{1: y}`): a map's
 * keys are strings, and this table gives back the Python value a key was written as, so that
 * iterating, `.items()`, `.keys()` and `dictsort` see `False`, not `'False'` (bind-formula's
 * `{False: pillar}` for its view-less zones).
 */
const KEY_VALUES = new WeakMap<object, Map<string, unknown>>();

/** Records that `map`'s key `key` stands for the non-string value `value`. */
export function setKeyValue(map: object, key: string, value: unknown): void {
  let keys = KEY_VALUES.get(map);
  if (!keys) {
    keys = new Map();
    KEY_VALUES.set(map, keys);
  }
  keys.set(key, value);
}

/** The Python value of `map`'s key `key`: the one written in the literal, else the string. */
export function keyValue(map: object, key: string): unknown {
  const keys = KEY_VALUES.get(map);
  return keys?.has(key) ? keys.get(key) : key;
}

/** A map's keys as the values they were written as. */
export function mapKeys(map: Record<string, unknown>): unknown[] {
  const keys = KEY_VALUES.get(map);
  return keys ? Object.keys(map).map((k) => (keys.has(k) ? keys.get(k) : k)) : Object.keys(map);
}

/** A map's `(key, value)` pairs, keys as they were written. */
export function mapEntries(map: Record<string, unknown>): Array<[unknown, unknown]> {
  return Object.entries(map).map(([k, v]) => [keyValue(map, k), v]);
}

export function iterate(value: unknown): unknown[] {
  if (value instanceof Undefined && value.soft) return [];
  const v = defined(value);
  if (Array.isArray(v)) return v;
  if (typeof v === 'string') return [...v];
  if (isMap(v)) return mapKeys(v);
  throw new TemplateError(`'${typeName(v)}' object is not iterable`);
}

/** Own properties only: a template can never reach prototypes or host objects. */
export function getItem(obj: unknown, key: unknown, how: 'attr' | 'item'): unknown {
  const o = defined(obj);
  if (isMap(o)) {
    if (typeof key === 'string' && Object.hasOwn(o, key)) return o[key];
    return new Undefined(
      how === 'attr'
        ? `'dict object' has no attribute ${repr(key)}`
        : `'dict object' has no key ${repr(key)}`,
    );
  }
  if (Array.isArray(o) || typeof o === 'string') {
    const fields = (o as { [FIELDS]?: readonly string[] })[FIELDS];
    if (fields && typeof key === 'string' && fields.includes(key)) return o[fields.indexOf(key)];
    if (typeof key === 'number' && Number.isInteger(key)) {
      const i = key < 0 ? o.length + key : key;
      if (i >= 0 && i < o.length) return o[i];
      return new Undefined(`${typeName(o)} index ${key} out of range`);
    }
    return new Undefined(`'${typeName(o)} object' has no attribute ${repr(key)}`);
  }
  if (o instanceof Macro && how === 'attr') {
    if (key === 'name') return o.name;
    if (key === 'arguments') return tuple([...o.params]);
  }
  return new Undefined(`'${typeName(o)} object' has no attribute ${repr(key)}`);
}

/** The engine's coroutine: yields promises it needs awaited, returns its value. */
export type Gen<T> = Generator<Promise<unknown>, T, unknown>;

/** A `{% macro %}`: called like a function, renders its body to a string. */
export class Macro {
  readonly typeName = 'Macro';
  constructor(
    readonly name: string,
    readonly invoke: (args: unknown[], kwargs: Record<string, unknown>, caller?: Macro) => Gen<string>,
    /** The parameter names (`macro.arguments`). */
    readonly params: readonly string[] = [],
  ) {}
}

export function isPromise(v: unknown): v is Promise<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

/** Runs a coroutine that must not wait (the reactor's synchronous API). */
export function runSync<T>(g: Gen<T>): T {
  const r = g.next();
  if (!r.done) throw new TemplateError('this template called an asynchronous function where none is allowed');
  return r.value;
}

/** Runs a coroutine, awaiting each promise it yields. */
export async function runAsync<T>(g: Gen<T>): Promise<T> {
  let r = g.next();
  while (!r.done) {
    let value: unknown;
    try {
      value = await r.value;
    } catch (err) {
      r = g.throw(err);
      continue;
    }
    r = g.next(value);
  }
  return r.value;
}
