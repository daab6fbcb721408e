import { describe, expect, it } from 'vitest';
import { cmpSatisfies, dottedVersionCmp, isCmpOperator } from './_version-cmp.js';

describe("Salt's version comparison operators", () => {
  it('accepts the results Salt accepts, != as anything but equal, any sign clamped', () => {
    const rows = ['<', '<=', '==', '>=', '>', '!='].map((op) => [
      op,
      [-5, -1, 0, 1, 7].map((r) => cmpSatisfies(op, r)),
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      '<': [true, true, false, false, false],
      '<=': [true, true, true, false, false],
      '==': [false, false, true, false, false],
      '>=': [false, false, true, true, true],
      '>': [false, false, false, true, true],
      '!=': [true, true, false, true, true],
    });
  });

  it('knows no other operator (Salt answers False for one it does not know)', () => {
    for (const op of ['=', '<>', '=>', 'constructor', 'toString', '']) {
      expect(isCmpOperator(op)).toBe(false);
      expect(cmpSatisfies(op, 0)).toBe(false);
    }
  });
});

describe('dotted version compare (pip versions)', () => {
  it('compares number by number, missing parts and non-numbers as 0, - as a dot', () => {
    const sign = (a: string, b: string) => Math.sign(dottedVersionCmp(a, b));
    expect([
      sign('9.0.3', '9.0'),
      sign('21.2', '21.2.0'),
      sign('8.0', '8.0.3'),
      sign('24.0', '9.0.3'),
    ]).toEqual([1, 0, -1, 1]);
    expect([sign('1.4-1', '1.4.1'), sign('7.0.0b1', '7.0.0'), sign('x.1', '0.1')]).toEqual([0, 0, 0]);
  });
});
