import { describe, expect, it } from 'vitest';
import { repackPkgs } from './_pkg-versions.js';

// Salt 3006.18's `_repack_pkgs` (postgres-formula's pkgs.purged lists hit it: a name twice).
describe('repackPkgs', () => {
  it('maps names and one-key maps to versions', () => {
    expect(repackPkgs(['a', { b: '1.0' }, { c: null }, true])).toEqual({
      a: null,
      b: '1.0',
      c: null,
      True: null,
    });
    expect(repackPkgs('a,b')).toEqual({});
  });

  it("refuses a name given twice with Salt's SaltInvocationError text", () => {
    expect(() => repackPkgs(['a', 'b', { a: '2' }])).toThrow(
      "You are passing a list of packages that contains duplicated packages names: ['a', 'b', {'a': '2'}]. This cannot be processed. In case you are targeting different versions of the same package, please target them individually",
    );
  });
});
