/**
 * A job's return code apart from its return value: Salt's `__context__["retcode"]`.
 *
 * Salt lets a function return normally and still set the job's retcode (`test.retcode`,
 * every `cmd.*` function when the command exits non-zero). Here such a function returns a
 * {@link RetcodeResult}; the executor unwraps it with {@link unwrapRetcode}, puts `value` in
 * the job return and uses `retcode` (Salt then still turns a `result`/`success: false` dict
 * into retcode 1 when no retcode was set). `ctx.call` unwraps it too, so callers get plain values.
 */

/** A return value together with the job retcode it sets. */
export class RetcodeResult<T = unknown> {
  readonly value: T;
  readonly retcode: number;

  constructor(value: T, retcode: number) {
    this.value = value;
    this.retcode = retcode;
  }
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

/** Wraps `value` with `retcode` when it is non-zero, and returns it plain otherwise. */
export function withRetcode<T>(value: T, retcode: number): T | RetcodeResult<T> {
  return retcode === 0 ? value : new RetcodeResult(value, retcode);
}
