/**
 * `npm.bootstrap` through a real `salt-call --local`: npm installs a folder's dependencies (a
 * local `file:` package, no registry needed). Every return below is what Salt 3006.18 returned
 * for the same SLS on this machine (12 of 12 identical in the lead's harness): with npm 7 and
 * later, `npm install --json --silent` prints no report, so Salt, and tsalt, say "already
 * bootstrapped" even when they installed something.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localApply } from '../support/local-apply.js';

describe('npm.bootstrap', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-npm-bootstrap-'));
  const srv = join(root, 'srv');
  const work = join(root, 'w');
  const apply = localApply(root, 'nb', srv);

  beforeAll(() => {
    mkdirSync(srv, { recursive: true });
    mkdirSync(join(work, 'dep'), { recursive: true });
    writeFileSync(join(work, 'dep', 'package.json'), '{"name":"dep","version":"1.0.0"}');
    mkdirSync(join(work, 'app'));
    writeFileSync(
      join(work, 'app', 'package.json'),
      '{"name":"app","version":"1.0.0","dependencies":{"dep":"file:../dep"}}',
    );
    writeFileSync(
      join(srv, 'nb.sls'),
      `app:\n  npm.bootstrap:\n    - name: ${work}/app\nmissing:\n  npm.bootstrap:\n    - name: ${work}/missing\n`,
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("installs a folder's dependencies, and fails for a folder that is not there", async () => {
    const would = await apply('nb', 'test=True');
    expect(would.app).toMatchObject({ result: true, comment: `${work}/app is already bootstrapped` });
    expect(existsSync(join(work, 'app', 'node_modules', 'dep'))).toBe(false);
    const ran = await apply('nb');
    expect(ran.app).toMatchObject({
      result: true,
      comment: 'Directory is already bootstrapped',
      changes: {},
    });
    expect(existsSync(join(work, 'app', 'node_modules', 'dep', 'package.json'))).toBe(true);
    expect(ran.missing).toMatchObject({
      result: false,
      comment: `Error Bootstrapping '${work}/missing': Specified cwd '${work}/missing' either not absolute or does not exist`,
    });
  }, 120_000);
});
