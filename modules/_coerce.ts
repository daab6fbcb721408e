/**
 * zod schemas for Python's lenient argument conversions, as Salt functions apply them to
 * CLI values (`int(length)` accepts 5, 5.9, True and " 5 "). Each takes the zod it builds with,
 * so a module that declares its arguments with an ArgsBuilder never imports zod itself.
 */
import type { z as Zod } from 'zod';
import { pyTruthy } from '../kernel/python/index.js';
import { pyInt as pyIntOf } from './_py-int.js';

/** Python's `int(x)` for a number, bigint, bool or decimal string; the result is a JS number. */
export const pyInt = (z: typeof Zod) =>
  z.union([z.number(), z.bigint(), z.boolean(), z.string()]).transform((v, ctx) => {
    try {
      return pyIntOf(v);
    } catch (err) {
      ctx.addIssue({ code: 'custom', message: (err as Error).message });
      return z.NEVER;
    }
  });

/** Python truthiness of an optional flag, with its default when absent. */
export function pyFlag(z: typeof Zod, defaultValue: boolean) {
  return z
    .unknown()
    .optional()
    .transform((v): boolean => (v === undefined ? defaultValue : pyTruthy(v)));
}
