/**
 * A job's return code apart from its return value: Salt's `__context__["retcode"]`, which a
 * function sets by returning a {@link RetcodeResult} (`test.retcode`, every `cmd.*` function).
 * The executor puts `value` in the job return and uses `retcode` (Salt then still turns a
 * `result`/`success: false` dict into 1 when no retcode was set). `ctx.call` unwraps it too,
 * keeping the retcode in {@link contextRetcode} (a module whose own runner stands for `cmd` sets it too).
 */

/** By job context: Salt's `__context__["retcode"]`, the last retcode a function called in the job set. */
export const contextRetcode = new WeakMap<object, number>();

/** A return value together with the job retcode it sets. */
export class RetcodeResult<T = unknown> {
  constructor(
    readonly value: T,
    readonly retcode: number,
  ) {}
}

/**
 * Splits a function's result into the value to return and the retcode it set (0 for a
 * plain value).
 * @example unwrapRetcode(new RetcodeResult(true, 42)) // { value: true, retcode: 42 }
 */
export function unwrapRetcode(result: unknown): { value: unknown; retcode: number } {
  if (result instanceof RetcodeResult) return { value: result.value, retcode: result.retcode };
  return { value: result, retcode: 0 };
}
