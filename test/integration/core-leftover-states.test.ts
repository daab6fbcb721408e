// The core state functions tsalt lacked until session 19 (cmd.call/wait_call, pkg.downloaded,
// group/patch states, kernelpkg, salt.parallel_runners, pip/npm/grains leftovers), through a real
// masterless salt-call. Expected answers are Salt 3006.18's for the same SLS
// (/tmp/corest19/harness.mjs).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildDeb, canInstallPackages } from '../../modules/_pkg-test-deb.js';
import { localCaller } from '../support/local-call.js';

type Run = Record<string, { result: boolean | null; comment: string; changes: Record<string, unknown> }>;

describe('core leftover states through salt-call', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-corest-'));
  const call = localCaller(root, 'corest');
  mkdirSync(join(root, 'srv'), { recursive: true });
  const sls = (name: string, text: string) => writeFileSync(join(root, 'srv', `${name}.sls`), text);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("cmd.call fails as Salt's does (an SLS func is never callable); cmd.wait_call waits for a watch", async () => {
    sls(
      'cmdcall',
      'callit:\n  cmd.call:\n    - func: test.ping\nwaitit:\n  cmd.wait_call:\n    - func: test.ping\n' +
        'trigger:\n  test.succeed_with_changes: []\nwatcher:\n  cmd.wait_call:\n    - func: {a: 1}\n' +
        '    - watch:\n      - test: trigger\n',
    );
    const r = (await call('state.apply', 'cmdcall')).local as Run;
    const call1 = r['cmd_|-callit_|-callit_|-call'];
    expect(call1?.result).toBe(false);
    expect(call1?.comment).toMatch(
      /^An exception occurred in this state: Traceback[\s\S]*\nTypeError: 'str' object is not callable\n$/,
    );
    expect(r['cmd_|-waitit_|-waitit_|-wait_call']).toMatchObject({ result: true, comment: '', changes: {} });
    expect(r['cmd_|-watcher_|-watcher_|-wait_call']?.comment).toMatch(
      /TypeError: 'collections.OrderedDict' object is not callable\n$/,
    );
  });

  it("pkg group and patch states refuse on apt with Salt's comments; pkg.downloaded with no packages", async () => {
    sls(
      'pkgmore',
      "grp:\n  pkg.group_installed:\n    - name: 'Development Tools'\npatch:\n  pkg.patch_installed:\n    - advisory_ids: [X-1]\n" +
        'patchd:\n  pkg.patch_downloaded: []\ndl_empty:\n  pkg.downloaded:\n    - pkgs: []\n',
    );
    const r = (await call('state.apply', 'pkgmore')).local as Run;
    expect(r['pkg_|-grp_|-Development Tools_|-group_installed']).toMatchObject({
      result: false,
      comment: 'pkg.group_install not available for this platform',
    });
    expect(r['pkg_|-patch_|-patch_|-patch_installed']?.comment).toBe(
      'The pkg.patch_installed state is not available on this platform',
    );
    expect(r['pkg_|-patchd_|-patchd_|-patch_downloaded']?.comment).toBe(
      'The pkg.patch_downloaded state is not available on this platform',
    );
    expect(r['pkg_|-dl_empty_|-dl_empty_|-downloaded']).toMatchObject({
      result: true,
      comment: 'No packages to download provided',
    });
  });

  it.skipIf(!canInstallPackages())(
    "pkg.downloaded reads apt's cache (under root): predicts a fetch, or finds the .deb there",
    async () => {
      const name = 'tsalt-t-corest-dl';
      const cache = join(root, 'sysroot', 'var/cache/apt/archives');
      mkdirSync(cache, { recursive: true });
      buildDeb(name, '1.2-1', cache);
      const rootArg = `root=${join(root, 'sysroot')}`;
      const missing = await call(
        'state.single',
        'pkg.downloaded',
        'name=tsalt-t-corest-nosuch',
        rootArg,
        'test=True',
      );
      expect(Object.values(missing.local as Run)[0]).toMatchObject({
        result: null,
        comment: 'The following packages would be downloaded: tsalt-t-corest-nosuch',
      });
      const have = await call('state.single', 'pkg.downloaded', `name=${name}`, rootArg);
      expect(Object.values(have.local as Run)[0]).toMatchObject({
        result: true,
        comment: 'All specified packages are already downloaded',
      });
      const versioned = await call(
        'state.single',
        'pkg.downloaded',
        `name=${name}`,
        'version=1.2-1',
        rootArg,
      );
      expect(Object.values(versioned.local as Run)[0]?.comment).toBe(
        'All specified packages (matching specified versions) are already downloaded',
      );
    },
  );

  it('kernelpkg.latest_wait waits; mod_watch refuses latest_installed; parallel_runners checks runners', async () => {
    sls(
      'kern',
      'k3:\n  kernelpkg.latest_wait: []\ntrig:\n  test.succeed_with_changes: []\n' +
        'k5:\n  kernelpkg.latest_installed:\n    - watch:\n      - test: trig\n' +
        'p1:\n  salt.parallel_runners:\n    - runners: 5\n',
    );
    const r = (await call('state.apply', 'kern', 'test=True')).local as Run;
    expect(r['kernelpkg_|-k3_|-k3_|-latest_wait']).toMatchObject({ result: true, comment: '' });
    expect(r['kernelpkg_|-k5_|-k5_|-latest_installed']).toMatchObject({
      result: false,
      comment: 'kernelpkg.latest_installed does not work with the watch requisite.',
    });
    expect(r['salt_|-p1_|-p1_|-parallel_runners']).toMatchObject({
      result: false,
      comment: 'The runners parameter must be a string or dict.',
    });
  });

  it('pip.uptodate reports a missing environment; helpers without a name are refused as in Salt', async () => {
    const r = await call('state.single', 'pip.uptodate', 'name=x', `bin_env=${join(root, 'novenv')}`);
    expect(Object.values(r.local as Run)[0]).toMatchObject({
      result: false,
      comment: `Access denied to ${join(root, 'novenv')}, could not find a pip binary`,
    });
    sls('hash', 'h1:\n  grains.make_hashable:\n    - list_grain: [[a, b], c]\n');
    const h = await call('state.apply', 'hash');
    expect(h.code).toBe(1);
    expect(h.output).toContain(
      "Passed invalid arguments: 'name' is an invalid keyword argument for 'grains.make_hashable'.",
    );
  });
});
