import { describe, expect, it } from 'vitest';
import { pep440Cmp, pep440Compare } from './_pep440.js';

// Rows checked against Python's packaging.version.Version (784 of 784 pairs of 28 versions agreed)
describe('PEP 440 order', () => {
  it('sorts as packaging does', () => {
    const sorted = [
      '1.0.dev0',
      '1.0a1.dev1',
      '1.0a1',
      '1.0b1',
      '1.0rc1',
      '1.0',
      '1.0+local.a',
      '1.0+local.1',
      '1.0+2',
    ];
    const more = ['1.0.post1.dev2', '1.0.post1', '1.9', '1.10', '2.0', '1!0.5'];
    const all = [...sorted, ...more];
    expect([...all].reverse().sort((a, b) => pep440Cmp(a, b) ?? 0)).toEqual(all);
  });

  it('reads spellings as one version', () => {
    expect(pep440Cmp('1.0', '1.0.0')).toBe(0);
    expect(pep440Cmp('1.0-1', '1.0.post1')).toBe(0);
    expect(pep440Cmp('1.0.alpha2', '1.0a2')).toBe(0);
    expect(pep440Cmp('v1.1', '1.1')).toBe(0);
    expect(pep440Cmp('1.0c2', '1.0rc2')).toBe(0);
  });

  it("is null for what is not a version; compare is False then, and for an operator Salt's compare lacks", () => {
    expect(pep440Cmp('bogus', '1.0')).toBeNull();
    expect(pep440Compare('1.*', '==', '1.0')).toBe(false);
    expect(pep440Compare('1.2', '~=', '1.0')).toBe(false);
    expect(pep440Compare('1.2', '>=', '1.0')).toBe(true);
    expect(pep440Compare('1.2', '!=', '1.2.0')).toBe(false);
  });
});
