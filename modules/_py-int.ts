/**
 * Python's `int()` in one place: the decimal text it accepts (surrounding whitespace, one sign,
 * `_` between digits) and, for any value, the result or the exception Python raises.
 */
import { pyIsSpace, pyStrRepr, SaltFloat } from '../kernel/python/index.js';
import { pythonError, pyValueClass } from './_py-exception.js';

const DIGITS = /^[-+]?\d+(?:_\d+)*$/;

/** Whether `int()` skips `ch` around its text: Unicode spaces, but of ASCII only ` \t\n\v\f\r`. */
function intSpace(ch: string): boolean {
  return ch > '\x7f' ? pyIsSpace(ch) : ' \t\n\v\f\r'.includes(ch);
}

/** `s` without the whitespace Python's `int()` strips around its text. */
function stripIntSpace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && intSpace(s[start]!)) start++;
  while (end > start && intSpace(s[end - 1]!)) end--;
  return s.slice(start, end);
}

/** Python's `int(text)` for a decimal string, or undefined where it raises ValueError. */
export function parsePyInt(text: string): number | undefined {
  const s = stripIntSpace(text);
  // `|| 0`: Python has no negative zero, `int('-0')` is 0
  return DIGITS.test(s) ? Number(s.replace(/_/g, '')) || 0 : undefined;
}

/**
 * Python's `int(v)` for a bool, int, float, bigint or decimal string, as a JS number; anything
 * else throws the error Python raises (ValueError, OverflowError or TypeError, with its text).
 */
export function pyInt(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'bigint') return Number(v);
  const x = v instanceof SaltFloat ? v.value : v;
  if (typeof x === 'number') {
    if (Number.isNaN(x)) throw pythonError('ValueError', 'cannot convert float NaN to integer');
    if (!Number.isFinite(x)) throw pythonError('OverflowError', 'cannot convert float infinity to integer');
    return Math.trunc(x) || 0;
  }
  if (typeof x === 'string') {
    const n = parsePyInt(x);
    if (n === undefined)
      throw pythonError('ValueError', `invalid literal for int() with base 10: ${pyStrRepr(x)}`);
    return n;
  }
  throw pythonError(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${pyValueClass(v)}'`,
  );
}
