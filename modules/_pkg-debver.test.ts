import { describe, expect, it } from 'vitest';
import { debVersionCompare } from './_pkg-debver.js';

describe("Debian version order (dpkg's verrevcmp)", () => {
  it.each([
    ['1.0', '2.0', -1],
    ['2.0', '1.0', 1],
    ['1.0', '1.0', 0],
    ['1.0', '1.0-0', 0],
    ['1.0~rc1', '1.0', -1],
    ['1.0~~', '1.0~', -1],
    ['1.0+b1', '1.0', 1],
    ['1:1.0', '2.0', 1],
    ['0:1.0', '1.0', 0],
    ['1.0-1', '1.0-2', -1],
    ['1.0a', '1.0', 1],
    ['1.0a', '1.0+', -1],
    ['1.010', '1.9', 1],
    ['5.2.15-2+b8', '5.2.15-2+b13', -1],
    ['2:1.02.185-2', '2:1.02.185-2', 0],
  ])('%s vs %s is %i', (a, b, want) => {
    expect(debVersionCompare(a, b)).toBe(want);
  });
});
