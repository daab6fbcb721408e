import { describe, expect, it } from 'vitest';
import { cmpSatisfies, isCmpOperator } from './_version-cmp.js';

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
