import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextRetcode } from '../kernel/util.js';
import { fakeCtx, invoke } from './_fake-ctx.js';
import {
  buildDeb,
  canInstallPackages,
  dpkgWaiting,
  holdPackageTestsLock,
  purgeDeb,
} from './_pkg-test-deb.js';
import { which } from './_which.js';
import config from './config.js';
import lowpkg from './lowpkg.js';
import pkg from './pkg.js';

// Expectations: salt-call --local (Salt 3006.18) on the same Debian host and the same .deb.
const usable = which('dpkg-query') !== null && which('dpkg-deb') !== null;
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-lowpkg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = fakeCtx({
  grains: { os_family: 'Debian', cpuarch: 'x86_64', osarch: 'amd64' },
  call: async (fun, args = [], kwargs = {}) => {
    const [mod, name = ''] = fun.split('.');
    const arg = [...args, { __kwarg__: true, ...kwargs }];
    return (await invoke(mod === 'pkg' ? pkg : config, name, arg, ctx)).value;
  },
});
const call = async (fun: string, arg: unknown[]) => invoke(lowpkg, fun, arg, ctx);

describe.skipIf(!usable)('lowpkg (dpkg)', () => {
  it('lists installed packages with their versions', async () => {
    const { value } = await call('list_pkgs', ['dpkg']);
    const version = execFileSync('dpkg-query', ['-f=${Version}', '-W', 'dpkg'], { encoding: 'utf8' });
    expect(value).toEqual({ dpkg: version });
    expect(await call('list_pkgs', ['tsalt-no-such-package'])).toEqual({
      value: 'Error:  dpkg-query: no packages found matching tsalt-no-such-package',
      retcode: 1,
    });
  });

  it("reads a .deb file's name, version and arch", async () => {
    const root = join(dir, 'pkg');
    mkdirSync(join(root, 'DEBIAN'), { recursive: true });
    writeFileSync(
      join(root, 'DEBIAN', 'control'),
      'Package: tsalt-t-lowpkg\nVersion: 1.2-3\nArchitecture: i386\nMaintainer: t <t@example.com>\nDescription: test\n',
    );
    const deb = join(dir, 'x.deb');
    execFileSync('dpkg-deb', ['-b', root, deb], { stdio: 'ignore' });
    expect((await call('bin_pkg_info', [deb])).value).toEqual({
      name: 'tsalt-t-lowpkg:i386',
      version: '1.2-3',
      arch: 'i386',
    });
    await expect(call('bin_pkg_info', [join(dir, 'nope.deb')])).rejects.toThrow(
      `${dir}/nope.deb does not exist on minion`,
    );
  });
});

const PKG = 'tsalt-t-lowpkg-info';

describe.skipIf(!usable || !canInstallPackages())(
  'lowpkg.info and lowpkg.unpurge (a tiny real package)',
  () => {
    let release = () => {};
    beforeAll(async () => {
      release = await holdPackageTestsLock();
    }, 900_000);
    afterAll(() => {
      purgeDeb(PKG);
      release();
    });

    it("info: dpkg's fields in Salt's order, install_date, description; failhard and bad keywords", async () => {
      purgeDeb(PKG);
      await dpkgWaiting(['-i', buildDeb(PKG, '1.0-1', dir)]);
      const mtime = statSync(`/var/lib/dpkg/info/${PKG}.list`).mtimeMs;
      const date = `${new Date(Math.floor(mtime / 1000) * 1000).toISOString().slice(0, 19)}Z`;
      const { value } = await call('info', [PKG]);
      expect(JSON.stringify(value)).toBe(
        JSON.stringify({
          [PKG]: {
            package: PKG,
            install_date: date,
            architecture: 'all',
            maintainer: 'tsalt tests <t@example.invalid>',
            source: PKG,
            version: '1.0-1',
            status: 'ii',
            description: 'tsalt test package\n A throwaway package.\n',
          },
        }),
      );
      await expect(call('info', ['tsalt-t-no-such'])).rejects.toThrow(
        'Error getting packages information: dpkg-query: no packages found matching tsalt-t-no-such',
      );
      expect(contextRetcode.get(ctx)).toBe(1);
      expect(await call('info', ['tsalt-t-no-such', { __kwarg__: true, failhard: false }])).toEqual({
        value: {},
        retcode: 0,
      });
      await expect(call('info', [PKG, { __kwarg__: true, foo: 'bar' }])).rejects.toThrow(
        'The following keyword arguments are not valid: foo=bar',
      );
    });

    it('unpurge: a package selected for purge goes back to install; the change to the purge list', async () => {
      await dpkgWaiting(['--set-selections'], `${PKG} purge\n`);
      const marked = await invoke(pkg, 'list_pkgs', [{ __kwarg__: true, purge_desired: true }], ctx);
      expect(marked.value).toMatchObject({ [PKG]: '1.0-1' });
      // dpkg refuses while another test file holds its lock, changing nothing: then ask again
      let changes: unknown = {};
      for (let n = 0; n < 120 && JSON.stringify(changes) === '{}'; n++) {
        if (n > 0) await new Promise((r) => setTimeout(r, 500));
        changes = (await call('unpurge', [PKG])).value;
      }
      expect(changes).toEqual({ [PKG]: { new: '', old: '1.0-1' } });
      expect(execFileSync('dpkg', ['--get-selections', PKG], { encoding: 'utf8' })).toMatch(/\sinstall\n$/);
      expect((await call('unpurge', [])).value).toEqual({});
    });
  },
);
