/**
 * The comparisons of Python's `operator` module that `loop.until_no_eval` can name as its
 * `compare_operator`, over plain data as Python compares it (`1 == 1.0 == True`, deep `==`).
 */
import { SALT_ERR_INVOCATION } from '../kernel/errors.js';
import { pyTypeName } from '../kernel/util.js';
import { isMapping, pyEquals } from '../modules/_traverse.js';

type Compare = (a: unknown, b: unknown) => unknown;

const typeOf = (v: unknown): string => pyTypeName(v).slice(8, -2);

/** Python's `<` for numbers, strings and lists; a TypeError as Python's for anything else. */
function less(a: unknown, b: unknown, op: string): boolean {
  const n = (v: unknown) => typeof v === 'number' || typeof v === 'boolean';
  if (n(a) && n(b)) return Number(a) < Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
      if (!pyEquals(a[i], b[i])) return less(a[i], b[i], op);
    }
    return a.length < b.length;
  }
  throw new SALT_ERR_INVOCATION(
    `'${op}' not supported between instances of '${typeOf(a)}' and '${typeOf(b)}'`,
  );
}

/** Python's `b in a`. */
function contains(a: unknown, b: unknown): boolean {
  if (typeof a === 'string') {
    if (typeof b !== 'string')
      throw new SALT_ERR_INVOCATION(`'in <string>' requires string as left operand, not ${typeOf(b)}`);
    return a.includes(b);
  }
  if (Array.isArray(a)) return a.some((x) => pyEquals(x, b));
  if (isMapping(a)) return typeof b === 'string' && b in a;
  throw new SALT_ERR_INVOCATION(`argument of type '${typeOf(a)}' is not iterable`);
}

const OPERATORS: Readonly<Record<string, Compare>> = {
  eq: (a, b) => pyEquals(a, b),
  ne: (a, b) => !pyEquals(a, b),
  lt: (a, b) => less(a, b, '<'),
  le: (a, b) => pyEquals(a, b) || less(a, b, '<='),
  gt: (a, b) => less(b, a, '>'),
  ge: (a, b) => pyEquals(a, b) || less(b, a, '>='),
  contains,
  // identity: None, True, False and equal primitives are one object here, as Python's small ones
  is_: (a, b) => a === b,
  is_not: (a, b) => a !== b,
};

/** The comparison `operator.<name>`, or undefined when tsalt has no such comparison. */
export function pyCompare(name: string): Compare | undefined {
  return Object.hasOwn(OPERATORS, name) ? OPERATORS[name] : undefined;
}
