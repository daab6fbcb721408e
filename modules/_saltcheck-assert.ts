/**
 * saltcheck's assertions (`salt/modules/saltcheck.py`, `SaltCheck._run_assertions`): the
 * expected value cast to the type of what the function returned, Python's `==`, `in`, `<`,
 * truthiness and `str()` in the verdicts, and the details Salt adds with `output_details`.
 * Where Python would raise (`5 in 'abc'`, `dict(5)`, `'a' < 1`), the assertion fails with
 * Python's error text instead of ending the whole run.
 */
import { pyStr, pyTruthy, pyTypeName, SaltFloat } from '../kernel/python/index.js';
import { pyJson } from '../plugins/renderers/index.js';
import { isMapping, pyEquals, traverse } from './_traverse.js';

export const ASSERTIONS = [
  'assertEqual',
  'assertNotEqual',
  'assertTrue',
  'assertFalse',
  'assertIn',
  'assertNotIn',
  'assertGreater',
  'assertGreaterEqual',
  'assertLess',
  'assertLessEqual',
  'assertEmpty',
  'assertNotEmpty',
] as const;

/** The assertions that take no `expected_return`. */
export const WITHOUT_EXPECTED = ['assertEmpty', 'assertNotEmpty', 'assertTrue', 'assertFalse'];

/** A Python TypeError/ValueError: the assertion fails with its text. */
class PyError extends Error {}

/** Python's type name of a value (`int`, `float`, `NoneType`, ...). */
const pyType = (v: unknown): string => pyTypeName(v).slice("<class '".length, -"'>".length);

/** Python's `int(text)` of a string, or undefined where it raises ValueError. */
function intOf(text: string): number | undefined {
  const t = text.trim();
  return /^[+-]?\d+(_\d+)*$/.test(t) ? Number(t.replace(/_/g, '')) : undefined;
}

/** Salt's `_cast_expected_to_returned_type`: `type(returned)(expected)`, ValueError ignored. */
export function castExpected(expected: unknown, returned: unknown): unknown {
  if (returned === null || returned === undefined) return expected;
  const to = pyType(returned);
  if (to === 'bool') return pyTruthy(expected === 'False' ? false : expected);
  if (to === 'str') return pyStr(expected);
  if (to === 'int' || to === 'float') {
    if (typeof expected === 'boolean') return Number(expected);
    if (typeof expected === 'number') return to === 'int' ? Math.trunc(expected) : expected;
    if (typeof expected === 'string') {
      const n = to === 'int' ? intOf(expected) : Number.parseFloat(expected);
      return n === undefined || Number.isNaN(n) || (to === 'float' && !/\d/.test(expected)) ? expected : n;
    }
    throw new PyError(
      `${to}() argument must be a string, a bytes-like object or a real number, not '${pyType(expected)}'`,
    );
  }
  if (to === 'list') {
    if (typeof expected === 'string') return [...expected];
    if (Array.isArray(expected)) return [...expected];
    if (isMapping(expected)) return Object.keys(expected);
    throw new PyError(`'${pyType(expected)}' object is not iterable`);
  }
  if (isMapping(expected)) return { ...expected };
  if (Array.isArray(expected) && expected.every((p) => Array.isArray(p) && p.length === 2))
    return Object.fromEntries(expected.map((p) => [String(p[0]), p[1]]));
  if (typeof expected === 'string' || Array.isArray(expected)) return expected; // ValueError, kept
  throw new PyError(`'${pyType(expected)}' object is not iterable`);
}

/** Python's `needle in haystack`. */
function pyIn(needle: unknown, haystack: unknown): boolean {
  if (typeof haystack === 'string') {
    if (typeof needle !== 'string')
      throw new PyError(`'in <string>' requires string as left operand, not ${pyType(needle)}`);
    return haystack.includes(needle);
  }
  if (Array.isArray(haystack)) return haystack.some((x) => pyEquals(x, needle));
  if (isMapping(haystack)) {
    if (Array.isArray(needle) || isMapping(needle)) throw new PyError(`unhashable type: '${pyType(needle)}'`);
    return Object.hasOwn(haystack, pyStr(needle)) && typeof needle === 'string';
  }
  throw new PyError(`argument of type '${pyType(haystack)}' is not iterable`);
}

/** Python's ordering of two values: negative, zero or positive; TypeError across kinds. */
function pyCompare(a: unknown, b: unknown, op: string): number {
  const num = (v: unknown) =>
    typeof v === 'boolean'
      ? Number(v)
      : typeof v === 'number'
        ? v
        : v instanceof SaltFloat
          ? v.value
          : undefined;
  const na = num(a);
  const nb = num(b);
  if (na !== undefined && nb !== undefined) return na - nb;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++)
      if (!pyEquals(a[i], b[i])) return pyCompare(a[i], b[i], op);
    return a.length - b.length;
  }
  throw new PyError(`'${op}' not supported between instances of '${pyType(a)}' and '${pyType(b)}'`);
}

type Verdict = (expected: unknown, returned: unknown, print: boolean) => string;

const check = (ok: boolean, why: string): string => (ok ? 'Pass' : `Fail: ${why}`);

const VERDICTS: Record<string, [string, Verdict]> = {
  assertEqual: [
    '==',
    (e, r, p) => check(pyEquals(e, r), p ? `${pyStr(e)} is not equal to ${pyStr(r)}` : 'Result is not equal'),
  ],
  assertNotEqual: [
    '!=',
    (e, r, p) => check(!pyEquals(e, r), p ? `${pyStr(e)} is equal to ${pyStr(r)}` : 'Result is equal'),
  ],
  assertTrue: ['True is', (_e, r) => check(r === true, `${pyStr(r)} not True`)],
  assertFalse: [
    'False is',
    (_e, r) => {
      const v = typeof r === 'string' ? pyTruthy(r) : r;
      return check(v === false, `${pyStr(v)} not False`);
    },
  ],
  assertIn: [
    'IN',
    (e, r, p) => check(pyIn(e, r), p ? `${pyStr(e)} not found in ${pyStr(r)}` : 'Result not found'),
  ],
  assertNotIn: [
    'NOT IN',
    (e, r, p) => check(!pyIn(e, r), p ? `${pyStr(e)} was found in ${pyStr(r)}` : 'Result was found'),
  ],
  assertGreater: ['>', (e, r) => check(pyCompare(e, r, '>') > 0, `${pyStr(r)} not False`)],
  assertGreaterEqual: ['>=', (e, r) => check(pyCompare(e, r, '>=') >= 0, `${pyStr(r)} not False`)],
  assertLess: ['<', (e, r) => check(pyCompare(e, r, '<') < 0, `${pyStr(r)} not False`)],
  assertLessEqual: ['<=', (e, r) => check(pyCompare(e, r, '<=') <= 0, `${pyStr(r)} not False`)],
  assertEmpty: ['IS EMPTY', (_e, r) => check(!pyTruthy(r), `${pyStr(r)} is not empty`)],
  assertNotEmpty: ['IS NOT EMPTY', (_e, r) => check(pyTruthy(r), 'value is empty')],
};

export interface AssertionInput {
  /** `module.function` of the test. */
  fun: string;
  args: unknown;
  /** The assertion's part of the test: `assertion`, `expected_return`, `assertion_section`. */
  data: Readonly<Record<string, unknown>>;
  returned: unknown;
  details: boolean;
  print: boolean;
}

/** One assertion's result: `{status}` and, with `output_details`, what was compared. */
export function runAssertion(a: AssertionInput): Record<string, unknown> {
  const section = a.data.assertion_section;
  const delim =
    typeof a.data.assertion_section_delimiter === 'string' ? a.data.assertion_section_delimiter : ':';
  let returned = a.returned;
  if (section !== undefined && section !== null && section !== '')
    returned = traverse(returned, String(section), false, delim);
  const assertion = a.fun === 'saltcheck.state_apply' ? 'assertNotEmpty' : String(a.data.assertion);
  let expected = a.data.expected_return !== undefined ? a.data.expected_return : a.data['expected-return'];
  const value: Record<string, unknown> = {};
  const verdict = VERDICTS[assertion];
  if (!verdict) value.status = 'Fail - bad assertion';
  else {
    try {
      if (!['assertIn', 'assertNotIn', ...WITHOUT_EXPECTED].includes(assertion))
        expected = castExpected(expected, returned);
      value.status = verdict[1](expected, returned, a.print);
    } catch (err) {
      if (!(err instanceof PyError)) throw err;
      value.status = `Fail: ${err.message}`;
    }
  }
  if (a.details) {
    const sectionTitle = section ? ' assertion_section' : '';
    value[`module.function [args]${sectionTitle}`] =
      `${a.fun} ${pyJson(a.args)}${section ? ` ${pyStr(section)}` : ''}`;
    const shown = expected === undefined || expected === null ? '' : `${pyStr(expected)} `;
    value['saltcheck assertion'] = `${shown}${verdict?.[0] ?? ''} ${a.print ? pyStr(returned) : 'hidden'}`;
  }
  return value;
}
