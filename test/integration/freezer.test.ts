/**
 * The `freezer` module through a real `salt-call --local`: freeze, status, list, compare, and a
 * restore that removes a package installed after the freeze. Expectations: what Salt 3006.18
 * returned and wrote for the same calls on this machine (/tmp harness: 19 of 19 identical, the
 * frozen files byte for byte).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeb, canInstallPackages, holdPackageTestsLock, purgeDeb } from '../../modules/_pkg-test-deb.js';
import { localCaller } from '../support/local-call.js';

const PKG = 'tsalt-t-frz';

describe('freezer through salt-call --local', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-freezer-'));
  const call = localCaller(root, 'frz1');
  const store = join(root, 'root', 'var', 'cache', 'salt', 'minion', 'freezer');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('freezes the package list as Python writes JSON, refuses a second freeze, lists and compares', async () => {
    expect((await call('freezer.list')).local).toEqual([]);
    expect((await call('freezer.status')).local).toBe(false);
    expect((await call('freezer.freeze')).local).toBe(true);
    const again = await call('freezer.freeze');
    expect(again.code).toBe(1);
    expect(again.output).toContain('The state is already present. Use force parameter to overwrite.');
    const text = readFileSync(join(store, 'freezer-pkgs.yml'), 'utf8');
    expect(text).toMatch(/^\{"[^"]+": "[^"]+", "/);
    expect(text.endsWith('}')).toBe(true);
    const pkgs = JSON.parse(text) as Record<string, string>;
    const [first, second] = Object.keys(pkgs);
    delete pkgs[first as string];
    pkgs[second as string] = '0:0';
    writeFileSync(join(store, 'edited-pkgs.yml'), JSON.stringify({ ...pkgs, 'tsalt-t-new': '1' }));
    writeFileSync(join(store, 'edited-reps.yml'), '{"r": {"a": {"b": 1, "c": 2}}}');
    expect((await call('freezer.list')).local).toEqual(['edited', 'freezer']);
    const diff = (await call('freezer.compare', 'freezer', 'edited')).local as Record<string, unknown>;
    expect(diff).toEqual({
      pkgs: {
        old: { [first as string]: expect.any(String), [second as string]: expect.any(String) },
        new: { [second as string]: '0:0', 'tsalt-t-new': '1' },
      },
      repos: { new: { r: { a: { b: 1, c: 2 } } } },
    });
    expect((await call('freezer.compare', 'freezer', 'nope')).output).toContain('Frozen state not found.');
  });

  it.skipIf(!canInstallPackages())('restores: a package installed after the freeze is removed', async () => {
    const release = await holdPackageTestsLock();
    try {
      purgeDeb(PKG);
      expect((await call('freezer.freeze', 'base')).local).toBe(true);
      execFileSync('dpkg', ['-i', buildDeb(PKG, '1.0', root)], { stdio: 'ignore' });
      expect((await call('freezer.restore', 'base', 'clean=True')).local).toEqual({
        pkgs: { add: [], remove: [PKG] },
        repos: { add: [], remove: [] },
        comment: [],
      });
      expect((await call('freezer.status', 'base')).local).toBe(false);
    } finally {
      purgeDeb(PKG);
      release();
    }
  });
});
