import { describe, expect, it } from 'vitest';
import { batchSize } from './batch.js';

describe('batchSize (Salt get_bnum)', () => {
  it.each([
    ['1', 10, 1],
    ['3', 10, 3],
    ['25%', 10, 2],
    ['10%', 4, 1],
    ['100%', 7, 7],
    ['50%', 1, 1],
  ])('%s of %i minions is %i', (spec, total, expected) => {
    expect(batchSize(spec, total)).toBe(expected);
  });
  it.each(['0', '-1', 'x', '', '1.5', '%'])('%j is refused with SALT_ERR_INVOCATION', (spec) => {
    expect(() => batchSize(spec, 10)).toThrow(expect.objectContaining({ code: 'SALT_ERR_INVOCATION' }));
  });
});
