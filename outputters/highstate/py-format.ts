/**
 * The parts of Python's text handling the highstate outputter needs: `str.format` over
 * positional arguments (the terse line and `state_tabular`'s custom format), `str.strip()`,
 * `float()` of a duration and `format(x, '.3f')`.
 */
import { cpLength, pyIsSpace, pyRepr, pyStr, pyValue } from '../../kernel/python/index.js';

/** Raised where Python raises (a missing key, a bad format): the outputter then prints nested. */
export class HighstateDataError extends Error {}

/** Python's `str.strip()`. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && pyIsSpace(s[start] as string)) start++;
  while (end > start && pyIsSpace(s[end - 1] as string)) end--;
  return s.slice(start, end);
}

const FLOAT_TEXT =
  /^[+-]?(?:(?:\d(?:_?\d)*)?\.?\d(?:_?\d)*(?:[eE][+-]?\d(?:_?\d)*)?|(?:\d(?:_?\d)*)\.|inf(?:inity)?|nan)$/i;

/** Python's `float(v)`; undefined where Python raises ValueError, throws where TypeError. */
export function pyFloat(v: unknown): number | undefined {
  const p = pyValue(v);
  if (p.kind === 'bool') return p.value ? 1 : 0;
  if (p.kind === 'int') return Number(p.value);
  if (p.kind === 'float') return p.value;
  if (p.kind !== 'str') throw new HighstateDataError(`float() argument must be a string or a real number`);
  const text = pyStrip(p.value);
  if (!FLOAT_TEXT.test(text)) return undefined;
  const lower = text.toLowerCase().replaceAll('_', '');
  if (lower.endsWith('nan')) return Number.NaN;
  if (lower.endsWith('inf') || lower.endsWith('infinity'))
    return lower.startsWith('-') ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  return Number(lower);
}

/** Whether `x * 10^digits` lies exactly halfway between two integers (exact binary arithmetic). */
function exactTie(x: number, digits: number): boolean {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & ((1n << 52n) - 1n);
  let exp = expBits - 1075;
  if (expBits === 0) exp = -1074;
  else mant |= 1n << 52n;
  if (exp >= 0 || mant === 0n) return false;
  const scaled = mant * 10n ** BigInt(digits);
  const denom = 1n << BigInt(-exp);
  return scaled % denom === denom >> 1n;
}

/** `format(x, '.<digits>f')`: exact ties round to even, as Python does (toFixed rounds them up). */
export function pyFixed(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'nan' : x > 0 ? 'inf' : '-inf';
  const text = x.toFixed(digits);
  if (!exactTie(x, digits)) return text;
  const scale = 10 ** digits;
  const down = Math.trunc(x * scale);
  return (Math.abs(down) % 2 === 0 ? down / scale : x).toFixed(digits);
}

function pad(text: string, fill: string, align: string, width: number): string {
  const n = width - cpLength(text);
  if (n <= 0) return text;
  if (align === '<') return text + fill.repeat(n);
  if (align === '^') {
    const left = Math.floor(n / 2);
    return fill.repeat(left) + text + fill.repeat(n - left);
  }
  return fill.repeat(n) + text;
}

const SPEC = /^(?:(.)?([<>^=]))?([+\- ])?(#)?(0)?(\d+)?(,)?(?:\.(\d+))?([sdfFeEgG%]?)$/su;

/** `format(value, spec)` for the specs the highstate outputter and common tabular formats use. */
function formatValue(value: unknown, spec: string): string {
  const m = SPEC.exec(spec);
  if (!m) throw new HighstateDataError(`Invalid format specifier '${spec}'`);
  const [, fill, align, , , zero, widthText, , precText, type] = m;
  const p = pyValue(value);
  const numeric = p.kind === 'int' || p.kind === 'float' || p.kind === 'bool';
  let text: string;
  if (numeric && (type === 'f' || type === 'F')) {
    text = pyFixed(Number(p.value), precText === undefined ? 6 : Number(precText));
  } else if (numeric && type === 'd') {
    text = pyStr(value);
  } else if (p.kind === 'str') {
    text = precText === undefined ? p.value : [...p.value].slice(0, Number(precText)).join('');
  } else if (spec === '') {
    text = pyStr(value);
  } else if (numeric) {
    text = pyStr(p.kind === 'bool' ? (p.value ? 1 : 0) : value);
  } else {
    throw new HighstateDataError(`unsupported format string passed to ${p.kind}.__format__`);
  }
  const width = widthText === undefined ? 0 : Number(widthText);
  const defaultAlign = numeric ? '>' : '<';
  return pad(text, fill ?? (zero ? '0' : ' '), align ?? defaultAlign, width);
}

function lookup(args: readonly unknown[], field: string): unknown {
  const m = /^(\d+)((?:\[[^\]]*\]|\.\w+)*)$/.exec(field);
  if (!m) throw new HighstateDataError(`bad format field '${field}'`);
  const index = Number(m[1]);
  if (index >= args.length) throw new HighstateDataError('Replacement index out of range');
  let value = args[index];
  for (const acc of (m[2] ?? '').match(/\[[^\]]*\]|\.\w+/g) ?? []) {
    const key = acc.startsWith('[') ? acc.slice(1, -1) : acc.slice(1);
    const p = pyValue(value);
    if ((p.kind === 'list' || p.kind === 'tuple') && /^\d+$/.test(key)) {
      if (Number(key) >= p.value.length) throw new HighstateDataError('list index out of range');
      value = p.value[Number(key)];
    } else if (p.kind === 'dict') {
      const hit = p.value.find(([k]) => k === key);
      if (!hit) throw new HighstateDataError(`KeyError: ${pyRepr(key)}`);
      value = hit[1];
    } else {
      throw new HighstateDataError(`'${p.kind}' object is not subscriptable`);
    }
  }
  return value;
}

/** Python's `fmt.format(*args)` (positional fields, `[key]` lookups, `!s`/`!r`, format specs). */
export function pyFormat(fmt: string, args: readonly unknown[]): string {
  let out = '';
  let auto = 0;
  let i = 0;
  while (i < fmt.length) {
    const ch = fmt[i] as string;
    if (ch === '}') {
      if (fmt[i + 1] !== '}') throw new HighstateDataError("Single '}' encountered in format string");
      out += '}';
      i += 2;
      continue;
    }
    if (ch !== '{') {
      out += ch;
      i++;
      continue;
    }
    if (fmt[i + 1] === '{') {
      out += '{';
      i += 2;
      continue;
    }
    const close = fmt.indexOf('}', i);
    if (close < 0) throw new HighstateDataError("Single '{' encountered in format string");
    const body = fmt.slice(i + 1, close);
    const m = /^([^!:]*)(?:!([rsa]))?(?::(.*))?$/s.exec(body);
    if (!m) throw new HighstateDataError(`bad format field '${body}'`);
    let field = m[1] ?? '';
    if (field === '' || field.startsWith('[')) field = `${auto++}${field}`;
    let value = lookup(args, field);
    if (m[2] === 's') value = pyStr(value);
    else if (m[2] === 'r' || m[2] === 'a') value = pyRepr(value);
    out += formatValue(value, m[3] ?? '');
    i = close + 1;
  }
  return out;
}
