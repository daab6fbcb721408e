/**
 * The `cpan` module through salt-call --local, with Debian's perl, against a local CPAN mirror
 * folder (test/support/cpan-mirror.ts): show_config, show, install, list and remove of a small
 * distribution, for real, under a throwaway HOME. Expectations: Salt 3006.18 on this machine
 * (14 of 14 calls identical in /tmp/tools22/cmp.mjs cpan).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../../modules/_which.js';
import { makeCpanHome } from '../support/cpan-mirror.js';
import { localCaller } from '../support/local-call.js';

describe.skipIf(!which('cpan') || !which('make'))('cpan module', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-cpan-'));
  const home = join(root, 'home');
  const call = localCaller(root, 'cpan1');
  const saved = { HOME: process.env.HOME, PERL5LIB: process.env.PERL5LIB };
  const installedFile = join(home, 'perl5/lib/perl5/Tsalt/Hello.pm');

  beforeAll(() => {
    // salt-call and the cpan it runs see this worker's environment
    process.env.PERL5LIB = makeCpanHome(home);
    process.env.HOME = home;
  });
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('show_config and show read cpan -J and cpan -D', { timeout: 240_000 }, async () => {
    const config = (await call('cpan.show_config')).local as Record<string, string>;
    expect(config.build_dir).toBe(join(home, '.cpan/build'));
    expect(config.urllist).toBe('['); // a value over several lines keeps its first part, as in Salt
    expect((await call('cpan.show', 'Tsalt::Hello')).local).toEqual({
      name: 'Tsalt::Hello',
      description: '(no description)',
      'cpan file': 'T/TS/TSALT/Tsalt-Hello-0.01.tar.gz',
      'installed file': '(no installation file)',
      'installed version': 'not installed',
      'cpan version': '0.01',
      'author name': 'Tsalt Tester (TSALT)',
      'author email': 'tsalt@example.com',
      'cpan build dirs': [],
    });
    expect((await call('cpan.show', 'No::Such::Module')).local).toEqual({
      name: 'No::Such::Module',
      error: 'This package does not seem to exist',
    });
    expect((await call('cpan.remove', 'No::Such::Module')).local).toEqual({
      error: 'This package does not seem to exist',
    });
    // Salt reads the new version of a module cpan never found: its KeyError
    const unknown = await call('cpan.install', 'No::Such::Module');
    expect(unknown.code).toBe(1);
    expect(unknown.output).toContain("KeyError: 'installed version'");
  });

  it('installs from the mirror, lists it, removes its files by the build MANIFEST', {
    timeout: 300_000,
  }, async () => {
    expect((await call('cpan.install', 'Tsalt::Hello')).local).toEqual({ old: 'not installed', new: '0.01' });
    expect(existsSync(installedFile)).toBe(true);
    const shown = (await call('cpan.show', 'Tsalt::Hello')).local as Record<string, unknown>;
    expect(shown['installed file']).toBe(installedFile);
    expect(shown['installed version']).toBe('0.01');
    expect(shown['cpan build dirs']).toEqual([join(home, '.cpan/build/Tsalt-Hello-0.01-0')]);
    const listed = (await call('cpan.list')).local as Record<string, string>;
    expect(listed['Tsalt::Hello']).toBe('0.01');
    expect((await call('cpan.remove', 'Tsalt::Hello', 'details=True')).local).toEqual({
      old: '0.01',
      new: null,
      details: { [installedFile]: 'removed' },
    });
    expect(existsSync(installedFile)).toBe(false);
    // cpan now says "(no installation file)", which Salt joins into a relative path for file.remove
    const again = await call('cpan.remove', 'Tsalt::Hello');
    expect(again.code).toBe(1);
    expect(again.output).toContain('File path must be absolute: (no installation file)Tsalt/Hello.pm');
  });
});
