import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { beaconCtx } from '../../test/support/beacon-ctx.js';
import pkg from './pkg.js';

const dir = mkdtempSync(join(tmpdir(), 'tsalt-pkg-beacon-'));
const name = `tsalt-bcn-${process.pid}`;
const dpkg = (...args: string[]) => execFileSync('dpkg', args, { stdio: 'ignore' });

describe('pkg beacon', () => {
  afterAll(() => {
    try {
      dpkg('-r', name);
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  });

  it("validates as Salt's: pkgs must be a list", () => {
    expect(pkg.validate?.({ pkgs: ['zsh'] })).toBe(true);
    expect(pkg.validate?.({ pkgs: 'zsh' })).toBe('Configuration for pkg beacon requires list of pkgs.');
    expect(pkg.validate?.({ refresh: true })).toBe('Configuration for pkg beacon requires list of pkgs.');
  });

  it('records on the first run, then fires when a package is installed and removed', async () => {
    mkdirSync(join(dir, 'deb', 'DEBIAN'), { recursive: true });
    writeFileSync(
      join(dir, 'deb', 'DEBIAN', 'control'),
      `Package: ${name}\nVersion: 2.5-1\nArchitecture: all\nMaintainer: tsalt <root@localhost>\nDescription: throwaway\n`,
    );
    execFileSync('dpkg-deb', ['--build', join(dir, 'deb'), join(dir, 'p.deb')], { stdio: 'ignore' });
    const ctx = beaconCtx(join(dir, 'salt'));
    const config = { pkgs: [name] };
    expect(await pkg.beacon(ctx, config)).toEqual([]);
    dpkg('-i', join(dir, 'p.deb'));
    expect(await pkg.beacon(ctx, config)).toEqual([{ pkg: name, version: '2.5-1', status: 'installed' }]);
    expect(await pkg.beacon(ctx, config)).toEqual([]);
    dpkg('-r', name);
    expect(await pkg.beacon(ctx, config)).toEqual([{ pkg: name, version: null, status: 'not-installed' }]);
    expect(ctx.calls).toContain(`pkg.latest_version ${name} refresh=false`);
  }, 240_000);
});
