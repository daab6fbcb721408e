import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeb, canInstallPackages, holdPackageTestsLock, purgeDeb } from '../modules/_pkg-test-deb.js';
import { runState } from './_pkg-test-ctx.js';
import pkg from './pkg.js';

const P = 'tsalt-t-pkgstate';
const NOSUCH = 'tsalt-t-nosuchpkg';
const run = (fun: string, kw: Record<string, unknown>, test = false) =>
  runState(pkg, fun, { name: P, ...kw }, test);
const ret = (changes: Record<string, unknown>, result: boolean | null, comment: string, name = P) => ({
  name,
  changes,
  result,
  comment,
});
const holdRet = (old: string, now: string, comment: string) => ({
  name: P,
  changes: { old, new: now },
  result: true,
  comment,
});

// Every expectation below is what Salt 3006.18 returned for the same state on this machine
// (aptpkg on Debian 12), with its package name in place of ours.
describe.skipIf(!canInstallPackages())('pkg states with apt', () => {
  let v1: string;
  let v2: string;
  let release = () => {};
  beforeAll(async () => {
    release = await holdPackageTestsLock();
    purgeDeb(P);
    v1 = buildDeb(P, '1.0');
    v2 = buildDeb(P, '2.0');
  }, 900_000);
  afterAll(() => {
    purgeDeb(P);
    release();
  });

  it('installed: sources, versions, pkgs, predicted under test=True', async () => {
    const would = ret(
      { [P]: { new: 'installed', old: '' } },
      null,
      `The following packages would be installed/updated: ${P}`,
    );
    await expect(run('installed', { sources: [{ [P]: v1 }] }, true)).resolves.toEqual(would);
    await expect(run('installed', { sources: [{ [P]: v1 }] })).resolves.toEqual(
      ret({ [P]: { old: '', new: '1.0' } }, true, `The following packages were installed/updated: ${P}`),
    );
    await expect(run('installed', { sources: [{ [P]: v1 }] })).resolves.toEqual(
      ret({}, true, 'All specified packages are already installed'),
    );
    await expect(run('installed', {})).resolves.toEqual(
      ret({}, true, 'All specified packages are already installed'),
    );
    const atVersion = 'All specified packages are already installed and are at the desired version';
    await expect(run('installed', { version: '1.0' })).resolves.toEqual(ret({}, true, atVersion));
    await expect(run('installed', { version: '2.0' }, true)).resolves.toEqual(would);
    await expect(run('installed', { name: 'tsalt-t-x', pkgs: [P] })).resolves.toEqual(
      ret({}, true, 'All specified packages are already installed', 'tsalt-t-x'),
    );
    await expect(run('installed', { name: 'tsalt-t-x', pkgs: [{ [P]: '1.0' }] })).resolves.toEqual(
      ret({}, true, atVersion, 'tsalt-t-x'),
    );
    await expect(run('installed', { sources: [{ [P]: v2 }] }, true)).resolves.toEqual(would);
    await expect(run('installed', { sources: [{ [P]: v2 }] })).resolves.toEqual(
      ret({ [P]: { old: '1.0', new: '2.0' } }, true, `The following packages were installed/updated: ${P}`),
    );
  });

  it('held and unheld, and hold: on installed', async () => {
    await expect(run('held', {}, true)).resolves.toEqual(
      ret({}, true, `The following package would be held: ${P}`),
    );
    await expect(run('held', {})).resolves.toEqual(
      ret(
        { [P]: holdRet('install', 'hold', `Package ${P} is now being held.`) },
        true,
        `Package ${P} is now being held`,
      ),
    );
    await expect(run('held', {})).resolves.toEqual(ret({}, true, 'No changes made'));
    await expect(run('unheld', {}, true)).resolves.toEqual(
      ret({}, true, `The following package would be unheld: ${P}`),
    );
    await expect(run('unheld', {})).resolves.toEqual(
      ret(
        { [P]: holdRet('hold', 'install', `Package ${P} is no longer being held.`) },
        true,
        `Package ${P} is no longer being held.`,
      ),
    );
    await expect(run('unheld', {})).resolves.toEqual(ret({}, true, 'No changes made'));
    await expect(run('installed', { hold: true })).resolves.toEqual(
      ret(
        { [P]: { old: 'install', new: 'hold' } },
        true,
        `All specified packages are already installed.\nPackage ${P} is now being held.`,
      ),
    );
    await expect(run('installed', { hold: false })).resolves.toEqual(
      ret(
        { [P]: { old: 'hold', new: 'install' } },
        true,
        `All specified packages are already installed.\nPackage ${P} is no longer being held.`,
      ),
    );
  });

  it('removed and purged', async () => {
    await expect(run('removed', {}, true)).resolves.toEqual(
      ret({ [P]: { new: 'removed', old: '' } }, null, `The following packages will be removed: ${P}.`),
    );
    await expect(run('removed', {})).resolves.toEqual(
      ret({ [P]: { new: '', old: '2.0' } }, true, 'All targeted packages were removed.'),
    );
    await expect(run('removed', {})).resolves.toEqual(
      ret({}, true, 'All specified packages are already absent'),
    );
    await expect(run('purged', {}, true)).resolves.toEqual(
      ret({ [P]: { new: 'purged', old: '' } }, null, `The following packages will be purged: ${P}.`),
    );
    await expect(run('purged', {})).resolves.toEqual(
      ret(
        { removed: { [P]: { new: '', old: '2.0' } }, installed: {} },
        true,
        'All targeted packages were purged.',
      ),
    );
    await expect(run('purged', {})).resolves.toEqual(
      ret({}, true, 'None of the targeted packages are installed or partially installed'),
    );
  });

  it('latest with an empty pkgs list: no packages, as Python reads an empty list (php-formula)', async () => {
    for (const test of [false, true])
      await expect(run('latest', { name: 'php-cli', pkgs: [] }, test)).resolves.toEqual(
        ret({}, true, 'No packages to install provided', 'php-cli'),
      );
  });

  it('a package apt does not know', async () => {
    await expect(run('installed', { name: NOSUCH })).resolves.toEqual(
      ret(
        {},
        false,
        `Problem encountered installing package(s). Additional info follows:\n\nerrors:\n    - E: Unable to locate package ${NOSUCH}`,
        NOSUCH,
      ),
    );
    await expect(run('installed', { name: NOSUCH }, true)).resolves.toEqual(
      ret(
        { [NOSUCH]: { new: 'installed', old: '' } },
        null,
        `The following packages would be installed/updated: ${NOSUCH}`,
        NOSUCH,
      ),
    );
    await expect(run('latest', { name: NOSUCH, refresh: false }, true)).resolves.toEqual(
      ret({}, false, `No information found for '${NOSUCH}'.`, NOSUCH),
    );
    await expect(run('removed', { name: NOSUCH })).resolves.toEqual(
      ret({}, true, 'All specified packages are already absent', NOSUCH),
    );
    await expect(run('mod_watch', { sfun: 'held' })).resolves.toEqual(
      ret({}, false, 'pkg.held does not work with the watch requisite'),
    );
  });
});
