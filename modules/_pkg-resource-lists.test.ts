import { describe, expect, it } from 'vitest';
import {
  addPkgInPlace,
  formatPkgList,
  formatVersion,
  sortPkglistInPlace,
  stringifyInPlace,
} from './_pkg-resource-lists.js';

const noArch = async (name: string) => ({ name, arch: null });
const aptArch = async (name: string) => {
  const at = name.lastIndexOf(':');
  return at < 0 ? { name, arch: null } : { name: name.slice(0, at), arch: name.slice(at + 1) };
};

describe("pkg_resource's in-place helpers (Salt 3006.18, measured)", () => {
  it('stringify joins version lists; a non-str version or a str container is Python’s TypeError', () => {
    const pkgs = { vim: ['7.1', '7.2'], bash: '5.2' };
    stringifyInPlace(pkgs);
    expect(pkgs).toEqual({ vim: '7.1,7.2', bash: '5,.,2' });
    expect(() => stringifyInPlace({ vim: [7] })).toThrow('sequence item 0: expected str instance, int found');
    expect(() => stringifyInPlace({ vim: 7.127 })).toThrow('can only join an iterable');
    expect(() => stringifyInPlace('abc')).toThrow("string indices must be integers, not 'str'");
    expect(() => stringifyInPlace([])).not.toThrow();
  });

  it('sort_pkglist sorts and deduplicates; add_pkg appends, ignoring what is no dict', () => {
    const pkgs: Record<string, unknown> = { vim: ['2.1', '1.0', '1.0'] };
    sortPkglistInPlace(pkgs);
    expect(pkgs).toEqual({ vim: ['1.0', '2.1'] });
    expect(() => sortPkglistInPlace(['3.45', '2.13'])).toThrow(
      'list indices must be integers or slices, not str',
    );
    expect(() => sortPkglistInPlace({ a: 5 })).toThrow("'int' object is not iterable");
    addPkgInPlace(pkgs, 'bind', '9');
    expect(pkgs.bind).toEqual(['9']);
    expect(() => addPkgInPlace('x', 'bind', '9')).not.toThrow();
  });

  it('format_version joins the parts that are set', () => {
    expect(formatVersion('1', '2.3', '4')).toBe('1:2.3-4');
    expect(formatVersion('', 2.3, '')).toBe(2.3);
    expect(formatVersion(0, '2.3', null)).toBe('2.3');
    expect(() => formatVersion('', 5, 'r1')).toThrow("unsupported operand type(s) for +=: 'int' and 'str'");
  });

  it('format_pkg_list: version strings, lists, or the attributes asked for under the name without its arch', async () => {
    const pkgs = {
      vim: [
        { epoch: '1', version: '2', release: '3' },
        { epoch: null, version: '4', release: null },
      ],
    };
    expect(await formatPkgList(pkgs, false, null, noArch)).toEqual({ vim: '1:2-3,4' });
    expect(await formatPkgList(pkgs, true, '', noArch)).toEqual({ vim: ['1:2-3', '4'] });
    expect(pkgs.vim[0]).toEqual({ epoch: '1', version: '2', release: '3' }); // the input is copied
    const withArch = { 'vim:i386': [{ version: '2', arch: 'i386', install_date: 'x', epoch: '1' }] };
    expect(await formatPkgList(withArch, false, 'all', aptArch)).toEqual({
      vim: [{ version: '2', arch: 'i386', install_date: 'x', epoch: '1' }],
    });
    expect(await formatPkgList(withArch, false, ['epoch'], aptArch)).toEqual({
      vim: [{ epoch: '1', version: '2', arch: 'i386' }],
    });
    await expect(formatPkgList({ vim: [{ version: '2' }] }, false, null, noArch)).rejects.toThrow("'epoch'");
    await expect(formatPkgList({ vim: [] }, false, 'epoch', noArch)).rejects.toThrow(
      'can only concatenate str (not "list") to str',
    );
  });
});
