/**
 * zod schemas for Python's lenient argument conversions, as Salt functions apply them to
 * CLI values (`int(length)` accepts 5, 5.9, True and " 5 "). Each takes the zod it builds with,
 * so a module that declares its arguments with an ArgsBuilder never imports zod itself.
 */
import type { z as Zod } from 'zod';
import { pyTruthy } from '../kernel/python/index.js';

const INT_LITERAL = /^\s*[-+]?\d+(?:_\d+)*\s*$/;

/** Python's `int(text)` for a decimal string, or undefined where it raises ValueError. */
export function parsePyInt(text: string): number | undefined {
  return INT_LITERAL.test(text) ? Number(text.replace(/_/g, '').trim()) : undefined;
}

/** Python's `int(x)` for a number, bigint, bool or decimal string; the result is a JS number. */
export const pyInt = (z: typeof Zod) =>
  z.union([z.number(), z.bigint(), z.boolean(), z.string()]).transform((v, ctx) => {
    if (typeof v === 'boolean') return v ? 1 : 0;
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        ctx.addIssue({ code: 'custom', message: `cannot convert float ${v} to integer` });
        return z.NEVER;
      }
      return Math.trunc(v);
    }
    const n = parsePyInt(v);
    if (n === undefined) {
      ctx.addIssue({ code: 'custom', message: `invalid literal for int() with base 10: '${v}'` });
      return z.NEVER;
    }
    return n;
  });

/** Python truthiness of an optional flag, with its default when absent. */
export function pyFlag(z: typeof Zod, defaultValue: boolean) {
  return z
    .unknown()
    .optional()
    .transform((v): boolean => (v === undefined ? defaultValue : pyTruthy(v)));
}
