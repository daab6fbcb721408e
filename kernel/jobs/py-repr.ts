/**
 * Python's `repr()` and `str()` of the values that travel in Salt job data, for the places
 * where Salt puts them into a message (`The following keyword arguments are not valid:
 * k=[1, 'a']`, `['sleep', '5'] : Timed out after 1 seconds`, `test.arg_repr`).
 */
import { SaltFloat } from '../serial/index.js';

/** Marks an array that Python holds as a tuple, so that it prints as `(a, b)`. */
export class PyTuple {
  readonly items: readonly unknown[];
  constructor(items: readonly unknown[]) {
    this.items = items;
  }
}

/** Python's `repr()` of a float (shortest round-trip digits; exponent form outside 1e-4 … 1e16). */
export function pyFloatRepr(n: number): string {
  if (Number.isNaN(n)) return 'nan';
  if (n === Number.POSITIVE_INFINITY) return 'inf';
  if (n === Number.NEGATIVE_INFINITY) return '-inf';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mant = '0', expPart = '0'] = n.toExponential().split('e');
  const exp = Number(expPart);
  const neg = mant.startsWith('-');
  const digits = mant.replace('-', '').replace('.', '');
  let out: string;
  if (exp < -4 || exp >= 16) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    out = `${m}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  } else if (exp < 0) {
    out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else if (digits.length > exp + 1) {
    out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
  } else {
    out = `${digits}${'0'.repeat(exp + 1 - digits.length)}.0`;
  }
  return neg ? `-${out}` : out;
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0x80 && cp < 0xa0) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

function pyBytesRepr(b: Uint8Array): string {
  let hasSingle = false;
  let hasDouble = false;
  for (const c of b) {
    if (c === 0x27) hasSingle = true;
    if (c === 0x22) hasDouble = true;
  }
  const quote = hasSingle && !hasDouble ? '"' : "'";
  let out = `b${quote}`;
  for (const c of b) {
    const ch = String.fromCharCode(c);
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else if (c < 0x20 || c >= 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}

/** Python's `repr()` of a decoded Salt value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return pyStrRepr(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : pyFloatRepr(value);
  if (value instanceof SaltFloat) return pyFloatRepr(value.value);
  if (value instanceof PyTuple) {
    const inner = value.items.map(pyRepr);
    return inner.length === 1 ? `(${inner[0]},)` : `(${inner.join(', ')})`;
  }
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(', ')}]`;
  if (value instanceof Uint8Array) return pyBytesRepr(value);
  if (value instanceof Map) {
    return `{${[...value].map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(', ')}}`;
  }
  if (typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`)
      .join(', ')}}`;
  }
  return pyStrRepr(String(value));
}

/** Python's `str()`: a string as is, anything else as its `repr()`. */
export function pyStr(value: unknown): string {
  return typeof value === 'string' ? value : pyRepr(value);
}

/** Python's `str(type(value))` for a decoded Salt value, e.g. `<class 'int'>`. */
export function pyTypeName(value: unknown): string {
  let name: string;
  if (value === null || value === undefined) name = 'NoneType';
  else if (typeof value === 'boolean') name = 'bool';
  else if (typeof value === 'string') name = 'str';
  else if (typeof value === 'bigint') name = 'int';
  else if (typeof value === 'number') name = Number.isInteger(value) ? 'int' : 'float';
  else if (value instanceof SaltFloat) name = 'float';
  else if (value instanceof PyTuple) name = 'tuple';
  else if (Array.isArray(value)) name = 'list';
  else if (value instanceof Uint8Array) name = 'bytes';
  else name = 'dict';
  return `<class '${name}'>`;
}

/** Python's truthiness of a decoded Salt value. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'bigint') return value !== 0n;
  if (typeof value === 'string') return value.length > 0;
  if (value instanceof SaltFloat) return value.value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  if (value instanceof Uint8Array) return value.length > 0;
  if (value instanceof Map) return value.size > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}
