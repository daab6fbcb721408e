import { describe, expect, it } from 'vitest';
import { castExpected, runAssertion } from './_saltcheck-assert.js';

const verdict = (assertion: string, expected: unknown, returned: unknown, print = true) =>
  runAssertion({
    fun: 'test.echo',
    args: null,
    data: { assertion, expected_return: expected },
    returned,
    details: false,
    print,
  }).status;

describe('saltcheck assertions (Python semantics, as Salt 3006.18 answers)', () => {
  it('casts the expected value to the type of the returned one', () => {
    expect(castExpected('5', 1)).toBe(5);
    expect(castExpected('x5', 1)).toBe('x5');
    expect(castExpected(2.7, 1)).toBe(2);
    expect(castExpected(7, 'a')).toBe('7');
    expect(castExpected([1, 'a'], 'a')).toBe("[1, 'a']");
    expect(castExpected('False', true)).toBe(false);
    expect(castExpected('no', true)).toBe(true);
    expect(castExpected('ab', [])).toEqual(['a', 'b']);
    expect(castExpected({ k: 1 }, [])).toEqual(['k']);
    expect(castExpected('x', null)).toBe('x');
  });

  it("compares as Python does and words the verdicts as Salt's", () => {
    expect(verdict('assertEqual', '1', 1)).toBe('Pass');
    expect(verdict('assertEqual', 'a', 'b')).toBe('Fail: a is not equal to b');
    expect(verdict('assertEqual', 'a', 'b', false)).toBe('Fail: Result is not equal');
    expect(verdict('assertIn', 'b', { a: 1, b: 2 })).toBe('Pass');
    expect(verdict('assertIn', 'c', ['a', 'b'])).toBe("Fail: c not found in ['a', 'b']");
    expect(verdict('assertIn', 1, 'abc')).toBe(
      "Fail: 'in <string>' requires string as left operand, not int",
    );
    expect(verdict('assertGreater', 10, '7')).toBe('Fail: 7 not False');
    expect(verdict('assertGreater', 10, 7)).toBe('Pass');
    expect(verdict('assertLess', [1, 2], [1, 3])).toBe('Pass');
    expect(verdict('assertTrue', undefined, 1)).toBe('Fail: 1 not True');
    expect(verdict('assertFalse', undefined, '')).toBe('Pass');
    expect(verdict('assertEmpty', undefined, { a: 1 })).toBe("Fail: {'a': 1} is not empty");
    expect(verdict('assertNotEmpty', undefined, [])).toBe('Fail: value is empty');
    expect(verdict('assertBogus', 1, 1)).toBe('Fail - bad assertion');
  });

  it("prints a test's arguments as Python's json.dumps does", () => {
    const details = (args: unknown) =>
      runAssertion({
        fun: 'test.echo',
        args,
        data: { assertion: 'assertTrue' },
        returned: true,
        details: true,
        print: true,
      })['module.function [args]'];
    expect(details(['a', 1, { k: [true, null] }])).toBe('test.echo ["a", 1, {"k": [true, null]}]');
    expect(details(null)).toBe('test.echo null');
  });
});
