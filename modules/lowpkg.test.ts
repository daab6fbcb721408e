import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { which } from './_which.js';
import config from './config.js';
import lowpkg from './lowpkg.js';

// Expectations: salt-call --local (Salt 3006.18) on the same Debian host and the same .deb.
const usable = which('dpkg-query') !== null && which('dpkg-deb') !== null;
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-lowpkg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ctx = fakeCtx({
  grains: { os_family: 'Debian', cpuarch: 'x86_64', osarch: 'amd64' },
  call: async (fun, args = []) => (await invoke(config, fun.replace('config.', ''), args)).value,
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
