import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import kernelpkgMod from './kernelpkg.js';
import pkgMod from './pkg.js';

// Read-only paths only, on this machine's real dpkg database: no kernel is installed or removed.
describe.skipIf(!which('dpkg-query'))('kernelpkg on apt', () => {
  const ctx = moduleCtx([cmdMod, pkgMod, kernelpkgMod], {
    grains: { os_family: 'Debian', kernel: 'Linux', kernelrelease: os.release(), osarch: 'amd64' },
  });
  it('loads on Debian-family systems only, with Salt reason elsewhere', () => {
    const v = kernelpkgMod.virtual;
    expect(typeof v === 'function' && v({ opts: {}, grains: { os_family: 'Debian' } })).toBe(true);
    expect(typeof v === 'function' && v({ opts: {}, grains: { os_family: 'RedHat' } })).toEqual({
      ok: false,
      reason: 'Module kernelpkg_linux_apt: no APT based system detected',
    });
  });

  it('active is the running release; list_installed holds only installed linux-image packages', async () => {
    expect(await ctx.call('kernelpkg.active')).toBe(os.release());
    const list = (await ctx.call('kernelpkg.list_installed')) as string[];
    for (const release of list)
      expect(execFileSync('dpkg-query', ['-s', `linux-image-${release}`], { encoding: 'utf8' })).toContain(
        'Status: install ok installed',
      );
    expect(await ctx.call('kernelpkg.latest_installed')).toBe(list[list.length - 1] ?? null);
  });

  it('remove refuses a release that is not installed', async () => {
    await expect(ctx.call('kernelpkg.remove', ['0.0.1-0-tsaltt'])).rejects.toThrow(
      "Kernel release '0.0.1-0-tsaltt' is not installed",
    );
  });

  it('with no kernel package: cleanup removes nothing, needs_reboot is a clean error (Salt crashes)', async (t) => {
    if (((await ctx.call('kernelpkg.list_installed')) as string[]).length > 0) t.skip();
    expect(await ctx.call('kernelpkg.cleanup', [false])).toEqual({ removed: [] });
    await expect(ctx.call('kernelpkg.needs_reboot')).rejects.toThrow('No linux-image package is installed');
  });
});
