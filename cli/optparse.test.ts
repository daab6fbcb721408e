import { describe, expect, it } from 'vitest';
import { floatOption, intOption, OptionValueError, optparseInt } from './optparse.js';

describe("optparse's option values", () => {
  it('reads integers as optparse does: decimal, 0x, 0b, a leading 0 octal', () => {
    expect(optparseInt('10')).toBe(10);
    expect(optparseInt(' -5 ')).toBe(-5);
    expect(optparseInt('0x1f')).toBe(31);
    expect(optparseInt('0b101')).toBe(5);
    expect(optparseInt('010')).toBe(8);
    expect(optparseInt('0')).toBe(0);
    expect(optparseInt('08')).toBeUndefined();
    expect(optparseInt('1.5')).toBeUndefined();
    expect(optparseInt('abc')).toBeUndefined();
    expect(optparseInt('')).toBeUndefined();
  });

  it("refuses a bad value with optparse's text and Python's repr", () => {
    expect(() => intOption('-t, --timeout')('abc')).toThrow(OptionValueError);
    expect(() => intOption('-t, --timeout')('abc')).toThrow("invalid integer value: 'abc'");
    expect(() => intOption('-t, --timeout')("it's")).toThrow('invalid integer value: "it\'s"');
    expect(() => floatOption('--batch-wait')('soon')).toThrow("invalid floating-point value: 'soon'");
    expect(floatOption('--batch-wait')('1.5')).toBe(1.5);
  });
});
