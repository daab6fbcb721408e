/**
 * `aggregate: True` (Salt's `state_aggregate`) on pkg states through a real `salt-call --local`:
 * the first pkg.installed chunk installs every package of the run's pkg.installed chunks in one
 * dpkg call, and the others find theirs in place. Each return is what Salt 3006.18 returned for
 * the same SLS on this machine (/tmp harness; 34 of 36 runs identical, the other 2 only in the
 * order of `changes`' keys, which Salt takes from a Python set).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDeb, canInstallPackages, holdPackageTestsLock, purgeDeb } from '../../modules/_pkg-test-deb.js';
import { localApply } from '../support/local-apply.js';

const A = 'tsalt-t-agga';
const B = 'tsalt-t-aggb';

describe.skipIf(!canInstallPackages())('pkg states with aggregate: True', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-pkg-agg-'));
  const srv = join(root, 'srv');
  const apply = localApply(root, 'agg', srv);
  let release = () => {};
  beforeAll(async () => {
    release = await holdPackageTestsLock();
    purgeDeb(A);
    purgeDeb(B);
    mkdirSync(srv, { recursive: true });
    const a = buildDeb(A, '1.0', root);
    const b = buildDeb(B, '1.0', root);
    writeFileSync(
      join(srv, 'agg.sls'),
      `a:\n  pkg.installed:\n    - aggregate: true\n    - sources:\n      - ${A}: ${a}\nb:\n  pkg.installed:\n    - sources:\n      - ${B}: ${b}\n`,
    );
  }, 120_000);
  afterAll(() => {
    purgeDeb(A);
    purgeDeb(B);
    release();
    rmSync(root, { recursive: true, force: true });
  });

  it('installs both packages in the first chunk, predicted the same under test=True', async () => {
    const would = await apply('agg', 'test=True');
    expect(would.a).toMatchObject({
      result: null,
      changes: { [A]: { new: 'installed', old: '' }, [B]: { new: 'installed', old: '' } },
      comment: `The following packages would be installed/updated: ${A}, ${B}`,
    });
    expect(would.b).toMatchObject({
      result: null,
      changes: { [B]: { new: 'installed', old: '' } },
      comment: `The following packages would be installed/updated: ${B}`,
    });
    const ran = await apply('agg');
    expect(ran.a).toMatchObject({
      result: true,
      changes: { [A]: { old: '', new: '1.0' }, [B]: { old: '', new: '1.0' } },
      comment: '2 targeted packages were installed/updated.',
    });
    expect(ran.b).toMatchObject({
      result: true,
      changes: {},
      comment: 'All specified packages are already installed',
    });
  }, 180_000);
});
