import { describe, expect, it } from 'vitest';
import { looseVersionCmp, looseVersionSatisfies } from './_gem-version.js';

// Expectations: salt.utils.versions.compare(a, op, b) in Salt 3006.18 (its LooseVersion).
describe("Salt's LooseVersion compare", () => {
  it('orders numbers as numbers', () => {
    expect(looseVersionCmp('1.10.0', '1.9')).toBe(1);
    expect(looseVersionCmp('1.0', '1.0')).toBe(0);
    expect(looseVersionCmp('1.0', '1.0.0')).toBe(-1);
    expect(looseVersionSatisfies('2.0.0', '>=', '1.10')).toBe(true);
  });

  it('compares as zero-padded text once a string is in either version', () => {
    // "=0.5" (Salt's reading of "<=0.5") holds a string: '00000001' < '='
    expect(looseVersionSatisfies('1.0.0', '<', '=0.5')).toBe(true);
    expect(looseVersionCmp('2.0.0.pre1', '2.0.0')).toBe(1);
    expect(looseVersionCmp('1.10a', '1.9a')).toBe(1);
    expect(looseVersionSatisfies('1.0', 'x', '1.0')).toBe(false);
  });
});
