import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execCtx } from '../states/_pkg-test-ctx.js';
import {
  buildDeb,
  canInstallPackages,
  dpkgWaiting,
  holdPackageTestsLock,
  purgeDeb,
} from './_pkg-test-deb.js';

const NAME = 'tsalt-t-pkgmod';
const real = canInstallPackages();
const call = (fun: string, args: unknown[] = [], kwargs: Record<string, unknown> = {}) =>
  execCtx().call(fun, args, kwargs);

describe('pkg module (apt/dpkg)', () => {
  let release = () => {};
  let v1: string;
  let v2: string;
  beforeAll(async () => {
    if (!real) return;
    release = await holdPackageTestsLock();
    purgeDeb(NAME);
    v1 = buildDeb(NAME, '1.0');
    v2 = buildDeb(NAME, '2.0');
  }, 900_000);
  afterAll(() => {
    if (real) purgeDeb(NAME);
    release();
  });

  it('reads installed packages as Salt does', async () => {
    const all = (await call('pkg.list_pkgs')) as Record<string, string>;
    expect(typeof all.dpkg).toBe('string');
    await expect(call('pkg.version', ['dpkg'])).resolves.toBe(all.dpkg);
    await expect(call('pkg.version', ['tsalt-t-nosuchpkg'])).resolves.toBe('');
    await expect(call('pkg.version', ['dpkg', 'tsalt-t-nosuchpkg'])).resolves.toEqual({
      dpkg: all.dpkg,
      'tsalt-t-nosuchpkg': '',
    });
    const lists = (await call('pkg.list_pkgs', [], { versions_as_list: true })) as Record<string, string[]>;
    expect(lists.dpkg).toEqual([all.dpkg]);
    await expect(call('pkg.owner', ['/usr/bin/dpkg'])).resolves.toBe('dpkg');
    await expect(call('pkg.owner', ['/usr/bin/dpkg', '/tsalt-t-nonexist'])).resolves.toEqual({
      '/usr/bin/dpkg': 'dpkg',
      '/tsalt-t-nonexist': '',
    });
    await expect(call('pkg.get_selections', ['dpkg'])).resolves.toEqual({ install: ['dpkg'] });
    await expect(call('pkg.version_cmp', ['1:1.0', '2.0'])).resolves.toBe(1);
    await expect(call('pkg.version_cmp', ['1:1.0', '2.0'], { ignore_epoch: true })).resolves.toBe(-1);
  });

  it('a kept package list is read again once dpkg changed outside the job (a job process lives on)', async () => {
    if (!real) return;
    const other = 'tsalt-t-pkgstale';
    const ctx = execCtx();
    const list = async () => (await ctx.call('pkg.list_pkgs')) as Record<string, string>;
    try {
      expect((await list())[other]).toBeUndefined();
      await dpkgWaiting(['-i', buildDeb(other, '1.0')]);
      expect((await list())[other]).toBe('1.0');
    } finally {
      purgeDeb(other);
    }
    expect((await list())[other]).toBeUndefined();
  });

  it('says which package is missing when apt cannot find it (Salt: CommandExecutionError with info)', async () => {
    if (!real) return;
    await expect(call('pkg.install', ['tsalt-t-nosuchpkg'])).rejects.toMatchObject({
      message: 'Problem encountered installing package(s)',
      details: { errors: ['E: Unable to locate package tsalt-t-nosuchpkg'], changes: {} },
    });
  });

  describe.skipIf(!real)('with a package built here', () => {
    it('installs from sources, upgrades, holds, reports, removes and purges', async () => {
      // the returns below are what Salt 3006.18 gave for the same calls on this machine
      await expect(call('pkg.install', [], { sources: [{ [NAME]: v1 }] })).resolves.toEqual({
        [NAME]: { old: '', new: '1.0' },
      });
      await expect(call('pkg.version', [NAME])).resolves.toBe('1.0');
      await expect(call('pkg.install', [], { sources: [{ [NAME]: v2 }] })).resolves.toEqual({
        [NAME]: { old: '1.0', new: '2.0' },
      });
      await expect(call('pkg.hold', [NAME])).resolves.toEqual({
        [NAME]: {
          name: NAME,
          changes: { old: 'install', new: 'hold' },
          result: true,
          comment: `Package ${NAME} is now being held.`,
        },
      });
      await expect(call('pkg.hold', [NAME])).resolves.toEqual({
        [NAME]: {
          name: NAME,
          changes: {},
          result: true,
          comment: `Package ${NAME} is already set to be held.`,
        },
      });
      await expect(call('pkg.unhold', [NAME], { test: true })).resolves.toEqual({
        [NAME]: { name: NAME, changes: {}, result: null, comment: `Package ${NAME} is set not to be held.` },
      });
      await expect(call('pkg.unhold', [NAME])).resolves.toEqual({
        [NAME]: {
          name: NAME,
          changes: { old: 'hold', new: 'install' },
          result: true,
          comment: `Package ${NAME} is no longer being held.`,
        },
      });
      await expect(call('pkg.unhold', ['tsalt-t-nosuch'])).resolves.toEqual({
        'tsalt-t-nosuch': {
          name: 'tsalt-t-nosuch',
          changes: {},
          result: false,
          comment: 'Package tsalt-t-nosuch does not have a state.',
        },
      });
      await expect(call('pkg.file_list', [NAME])).resolves.toEqual({
        errors: [],
        files: [
          '/.',
          '/etc',
          `/etc/${NAME}.conf`,
          '/usr',
          '/usr/share',
          `/usr/share/${NAME}`,
          `/usr/share/${NAME}/hello.txt`,
        ],
      });
      // a package dpkg does not know makes the whole answer dpkg-query's error, as in Salt
      await expect(call('pkg.file_dict', [NAME, 'tsalt-t-nosuch'])).resolves.toBe(
        'Error:  dpkg-query: no packages found matching tsalt-t-nosuch',
      );
      await expect(call('pkg.file_dict', [NAME])).resolves.toEqual({
        errors: [],
        packages: {
          [NAME]: [
            '/.',
            '/etc',
            `/etc/${NAME}.conf`,
            '/usr',
            '/usr/share',
            `/usr/share/${NAME}`,
            `/usr/share/${NAME}/hello.txt`,
          ],
        },
      });
      const info = (await call('pkg.info_installed', [NAME])) as Record<string, Record<string, string>>;
      expect(Object.keys(info[NAME] ?? {})).toEqual([
        'name',
        'install_date',
        'architecture',
        'packager',
        'source',
        'version',
        'description',
      ]);
      expect(info[NAME]).toMatchObject({
        name: NAME,
        architecture: 'all',
        packager: 'tsalt tests <t@example.invalid>',
        source: NAME,
        version: '2.0',
        description: 'tsalt test package\n A throwaway package.\n',
      });
      await expect(call('pkg.remove', [NAME])).resolves.toEqual({ [NAME]: { new: '', old: '2.0' } });
      await expect(call('pkg.list_pkgs', [], { removed: true })).resolves.toMatchObject({ [NAME]: '2.0' });
      expect(existsSync(`/etc/${NAME}.conf`)).toBe(true);
      await expect(call('pkg.purge', [NAME])).resolves.toEqual({
        removed: { [NAME]: { new: '', old: '2.0' } },
        installed: {},
      });
      expect(existsSync(`/etc/${NAME}.conf`)).toBe(false);
      await expect(call('pkg.remove', [NAME])).resolves.toEqual({});
    });
  });
});
