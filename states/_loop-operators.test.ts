import { describe, expect, it } from 'vitest';
import { jinjaCondition } from './_loop-condition.js';
import { pyCompare } from './_loop-operators.js';

describe("loop's conditions and comparisons", () => {
  it("rewrites Python's `is True/False/None` to Jinja's tests, leaving strings alone", () => {
    expect(jinjaCondition('m_ret is True')).toBe('m_ret is true');
    expect(jinjaCondition("m_ret['a'] is not None and m_ret['b'] is False")).toBe(
      "m_ret['a'] is not none and m_ret['b'] is false",
    );
    expect(jinjaCondition("m_ret == 'this is True'")).toBe("m_ret == 'this is True'");
    expect(jinjaCondition('this_is True')).toBe('this_is True');
  });

  it("compares as Python's operator module does", () => {
    const c = (op: string, a: unknown, b: unknown) => pyCompare(op)?.(a, b);
    expect(c('eq', 1, true)).toBe(true);
    expect(c('eq', { a: [1] }, { a: [1.0] })).toBe(true);
    expect(c('ne', {}, {})).toBe(false);
    expect(c('lt', 'a', 'b')).toBe(true);
    expect(c('ge', [1, 2], [1, 2])).toBe(true);
    expect(c('gt', [1, 3], [1, 2])).toBe(true);
    expect(c('contains', 'hello', 'ell')).toBe(true);
    expect(c('contains', { k: 1 }, 'k')).toBe(true);
    expect(c('is_', null, null)).toBe(true);
    expect(() => c('lt', {}, 1)).toThrow("'<' not supported between instances of 'dict' and 'int'");
    expect(pyCompare('frobnicate')).toBeUndefined();
    expect(pyCompare('constructor')).toBeUndefined();
  });
});
