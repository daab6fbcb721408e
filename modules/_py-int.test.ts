import { describe, expect, it } from 'vitest';
import { SaltFloat } from '../kernel/python/index.js';
import { parsePyInt, pyInt } from './_py-int.js';

/** `[name, message]` of what `f` throws. */
function raised(f: () => unknown): [string, string] {
  try {
    f();
  } catch (e) {
    return [(e as Error).name, (e as Error).message];
  }
  throw new Error('did not throw');
}

// every value below was measured with python3 (3.11): `int(x)`
describe("Python's int()", () => {
  it('reads decimal text as Python does: whitespace, one sign, _ between digits', () => {
    expect(parsePyInt(' 12 ')).toBe(12);
    expect(parsePyInt('\t7\n')).toBe(7);
    expect(parsePyInt('\u00a012\u2003')).toBe(12);
    expect(parsePyInt('\x855\u3000')).toBe(5);
    expect(parsePyInt('\x0b5\x0c')).toBe(5);
    expect(parsePyInt('+5')).toBe(5);
    expect(parsePyInt('-5')).toBe(-5);
    expect(parsePyInt('0012')).toBe(12);
    expect(parsePyInt('1_000')).toBe(1000);
    expect(Object.is(parsePyInt('-0'), 0)).toBe(true);
    for (const bad of [
      '_1',
      '1__0',
      '1_',
      '+_1',
      '1.5',
      '1e3',
      '0x10',
      '- 5',
      '',
      ' ',
      '\ufeff1',
      '\x1c5\x1f',
      '\u180e5',
    ])
      expect(parsePyInt(bad)).toBeUndefined();
  });

  it('converts bools, numbers and strings', () => {
    expect(pyInt(true)).toBe(1);
    expect(pyInt(false)).toBe(0);
    expect(pyInt(1.9)).toBe(1);
    expect(pyInt(-1.9)).toBe(-1);
    expect(Object.is(pyInt(-0.5), 0)).toBe(true);
    expect(pyInt(new SaltFloat(3.7))).toBe(3);
    expect(pyInt(2n ** 40n)).toBe(2 ** 40);
    expect(pyInt(' 1_000 ')).toBe(1000);
  });

  it("raises Python's exception and text for what int() refuses", () => {
    expect(raised(() => pyInt('1.5'))).toEqual([
      'ValueError',
      "invalid literal for int() with base 10: '1.5'",
    ]);
    expect(raised(() => pyInt(' x '))).toEqual([
      'ValueError',
      "invalid literal for int() with base 10: ' x '",
    ]);
    expect(raised(() => pyInt("it's"))).toEqual([
      'ValueError',
      `invalid literal for int() with base 10: "it's"`,
    ]);
    expect(raised(() => pyInt(Number.NaN))).toEqual(['ValueError', 'cannot convert float NaN to integer']);
    expect(raised(() => pyInt(-Infinity))).toEqual([
      'OverflowError',
      'cannot convert float infinity to integer',
    ]);
    expect(raised(() => pyInt(null))).toEqual([
      'TypeError',
      "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
    ]);
    expect(raised(() => pyInt([1]))).toEqual([
      'TypeError',
      "int() argument must be a string, a bytes-like object or a real number, not 'list'",
    ]);
  });
});
