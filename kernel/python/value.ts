/**
 * How a JS value stands for a Python value, so that tsalt prints (outputters, job messages,
 * `test.arg_repr`) what Salt prints. A value decoded from msgpack or a CLI word is made of
 * these: `null`/`undefined` → None, booleans, integral numbers and bigints → int, other
 * numbers and {@link SaltFloat} → float, strings → str, `Uint8Array` → bytes,
 * {@link SaltDatetime}/`Date` → datetime, {@link SaltConstant}, arrays/`Set`s → list,
 * {@link PyTuple} → tuple, plain objects/`Map`s → dict.
 */
import { SaltConstant, SaltDatetime, SaltFloat } from '../serial/salt-types.js';

/** Marks an array that Python holds as a tuple, so that it prints as `(a, b)`. */
export class PyTuple {
  readonly items: readonly unknown[];
  constructor(items: readonly unknown[]) {
    this.items = items;
  }
}

/** The Python type a JS value stands for. */
export type PyValue =
  | { kind: 'none' }
  | { kind: 'bool'; value: boolean }
  | { kind: 'int'; value: number | bigint }
  | { kind: 'float'; value: number }
  | { kind: 'str'; value: string }
  | { kind: 'bytes'; value: Uint8Array }
  | { kind: 'datetime'; value: SaltDatetime }
  | { kind: 'constant'; value: SaltConstant }
  | { kind: 'list'; value: readonly unknown[] }
  | { kind: 'tuple'; value: readonly unknown[] }
  | { kind: 'dict'; value: ReadonlyArray<readonly [unknown, unknown]> }
  | { kind: 'other'; value: unknown };

function isPlainObject(v: object): v is Record<string, unknown> {
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Classifies `v` as the Python value it stands for. Dict entries keep insertion order. */
export function pyValue(v: unknown): PyValue {
  if (v === null || v === undefined) return { kind: 'none' };
  switch (typeof v) {
    case 'boolean':
      return { kind: 'bool', value: v };
    case 'number':
      // -0 has no int form in Python: it can only have been a float.
      return Number.isInteger(v) && !Object.is(v, -0)
        ? { kind: 'int', value: v }
        : { kind: 'float', value: v };
    case 'bigint':
      return { kind: 'int', value: v };
    case 'string':
      return { kind: 'str', value: v };
    case 'object':
      break;
    default:
      return { kind: 'other', value: v };
  }
  if (Array.isArray(v)) return { kind: 'list', value: v };
  if (v instanceof SaltFloat) return { kind: 'float', value: v.value };
  if (v instanceof Uint8Array) return { kind: 'bytes', value: v };
  if (v instanceof SaltDatetime) return { kind: 'datetime', value: v };
  if (v instanceof Date) {
    const dt = SaltDatetime.fromDate(v);
    return dt ? { kind: 'datetime', value: dt } : { kind: 'other', value: v };
  }
  if (v instanceof SaltConstant) return { kind: 'constant', value: v };
  if (v instanceof PyTuple) return { kind: 'tuple', value: v.items };
  if (v instanceof Set) return { kind: 'list', value: [...v] };
  if (v instanceof Map) return { kind: 'dict', value: [...v.entries()] };
  if (isPlainObject(v)) return { kind: 'dict', value: Object.entries(v) };
  return { kind: 'other', value: v };
}

const TYPE_NAMES: Readonly<Record<PyValue['kind'], string>> = {
  none: 'NoneType',
  bool: 'bool',
  int: 'int',
  float: 'float',
  str: 'str',
  bytes: 'bytes',
  datetime: 'datetime.datetime',
  constant: 'salt.defaults._Constant',
  list: 'list',
  tuple: 'tuple',
  dict: 'dict',
  other: 'object',
};

/** Python's `str(type(value))`, e.g. `<class 'int'>`. */
export function pyTypeName(v: unknown): string {
  return `<class '${TYPE_NAMES[pyValue(v).kind]}'>`;
}

/** Compares two strings by code point, as Python orders `str` (JS `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const ca = a.charCodeAt(i);
    const cb = b.charCodeAt(i);
    if (ca === cb) continue;
    // Only surrogates against U+E000..U+FFFF order differently by unit and by code point.
    const sa = ca >= 0xd800 && ca <= 0xdfff;
    const sb = cb >= 0xd800 && cb <= 0xdfff;
    if (sa !== sb) return sa ? 1 : -1;
    return ca - cb;
  }
  return a.length - b.length;
}

function numericKey(k: unknown): number | bigint | undefined {
  if (typeof k === 'number' || typeof k === 'bigint') return k;
  if (typeof k === 'boolean') return k ? 1 : 0;
  if (k instanceof SaltFloat) return k.value;
  return undefined;
}

/**
 * Python's `sorted()` of dict keys: all text by code point, or all numbers by value. Any
 * other mix makes Python raise TypeError: then this returns `undefined`.
 */
export function pySortedKeys<K>(keys: readonly K[]): K[] | undefined {
  if (keys.every((k) => typeof k === 'string')) {
    return [...keys].sort((a, b) => compareCodePoints(a as string, b as string));
  }
  const nums = keys.map(numericKey);
  if (nums.every((n) => n !== undefined)) {
    const order = keys.map((k, i) => ({ k, n: nums[i] as number | bigint }));
    order.sort((x, y) => (x.n < y.n ? -1 : x.n > y.n ? 1 : 0));
    return order.map((o) => o.k);
  }
  return undefined;
}

/** Python's `sorted()` of dict entries by key, or `undefined` where Python raises TypeError. */
export function pySortedEntries<K, V>(
  entries: ReadonlyArray<readonly [K, V]>,
): Array<readonly [K, V]> | undefined {
  const keys = pySortedKeys(entries.map(([k]) => k));
  if (!keys) return undefined;
  const byKey = new Map<K, readonly [K, V]>(entries.map((e) => [e[0], e]));
  return keys.map((k) => byKey.get(k) as readonly [K, V]);
}

/** The characters Python's `str.splitlines()` breaks at (`\r\n` counts as one break). */
const LINE_BREAKS = new Set(['\n', '\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']);

/** Python's `str.splitlines(keepends)`: no empty last line after a final break, `[]` for `''`. */
export function pySplitlines(s: string, keepends = false): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] as string;
    if (!LINE_BREAKS.has(ch)) continue;
    const end = ch === '\r' && s[i + 1] === '\n' ? i + 2 : i + 1;
    lines.push(s.slice(start, keepends ? end : i));
    start = end;
    i = end - 1;
  }
  if (start < s.length) lines.push(s.slice(start));
  return lines;
}

/** The characters Python's `str.isspace()` accepts (what `str.rstrip()` removes). */
export function pyIsSpace(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return (
    (c >= 0x09 && c <= 0x0d) ||
    (c >= 0x1c && c <= 0x20) ||
    c === 0x85 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

/** Python's `str.rstrip()` (JS `trimEnd` strips a different set). */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && pyIsSpace(s[end - 1] as string)) end--;
  return s.slice(0, end);
}

/**
 * Python's `repr(float)`: the shortest round-trip digits, fixed notation for exponents -4..15
 * (always with a `.0` or fraction), else `1e+16` style with at least two exponent digits.
 */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mant = '', expText = '0'] = Math.abs(x).toExponential().split('e');
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 16) {
    const frac = digits.length > 1 ? `.${digits.slice(1)}` : '';
    const expAbs = String(Math.abs(exp)).padStart(2, '0');
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${expAbs}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fracPart = digits.slice(exp + 1) || '0';
  return `${sign}${intPart}.${fracPart}`;
}

/** Python's `str(int)`, without the exponent form JS uses from 1e21 on. */
export function pyIntRepr(n: number | bigint): string {
  return typeof n === 'bigint' ? n.toString() : BigInt(n).toString();
}

/** Python's `len(str)`: code points, not UTF-16 units. */
export function cpLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}
