import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkgMod from '../modules/pkg.js';
import { moduleCtx, runState } from './_test-ctx.js';
import apt from './apt.js';

// Expectations are what Salt 3006.18 returned for the same SLS (/tmp/more16/harness.sh, case apt),
// on a throwaway package this test builds, installs and purges. Needs root and dpkg.

const PKG = 'tsalt-t-apt-held-dummy';
const can = process.getuid?.() === 0 && existsSync('/usr/bin/dpkg-deb');
let dir: string;

beforeAll(async () => {
  if (!can) return;
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-apt-'));
  await mkdir(join(dir, 'deb/DEBIAN'), { recursive: true });
  await writeFile(
    join(dir, 'deb/DEBIAN/control'),
    `Package: ${PKG}\nVersion: 1.0\nArchitecture: all\nMaintainer: tsalt <t@example.invalid>\nDescription: throwaway\n`,
  );
  execFileSync('dpkg-deb', ['--build', join(dir, 'deb'), join(dir, 'p.deb')], { stdio: 'ignore' });
  execFileSync('dpkg', ['-i', join(dir, 'p.deb')], { stdio: 'ignore' });
});
afterAll(async () => {
  if (!can) return;
  execFileSync('dpkg', ['--purge', PKG], { stdio: 'ignore' });
  await rm(dir, { recursive: true, force: true });
});

describe.runIf(can)('apt.held', () => {
  it('holds an installed package, says when it already is, and when a package has no state', async () => {
    const ctx = moduleCtx([pkgMod], { grains: { os_family: 'Debian', kernel: 'Linux' } });
    const held = (name: string, test: boolean) => runState(apt, 'held', { name }, { ctx, test });
    expect(await held(PKG, true)).toEqual({
      name: PKG,
      changes: {},
      result: null,
      comment: `Package ${PKG} is set to be held`,
    });
    expect(await held(PKG, false)).toEqual({
      name: PKG,
      changes: { old: 'install', new: 'hold' },
      result: true,
      comment: `Package ${PKG} is now being held`,
    });
    expect(execFileSync('dpkg', ['--get-selections', PKG], { encoding: 'utf8' })).toMatch(/\thold\n$/);
    expect((await held(PKG, false)).comment).toBe(`Package ${PKG} is already held`);
    expect(await held('tsalt-t-no-such-pkg', false)).toEqual({
      name: 'tsalt-t-no-such-pkg',
      changes: {},
      result: false,
      comment: 'Package tsalt-t-no-such-pkg does not have a state',
    });
  });
});
