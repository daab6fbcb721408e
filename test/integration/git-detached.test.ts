/**
 * `git.detached` through a real `salt-call --local` against a real repository: every return
 * below is what Salt 3006.18 returned for the same SLS on this machine (30 of 30 runs identical
 * in the lead's harness, with tags, a branch, full and short commit ids, hard_reset,
 * fetch_remote: False, a changed remote URL, force_clone and a remote named upstream).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../support/git-repo.js';
import { localApply } from '../support/local-apply.js';

describe('git.detached', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-git-detached-'));
  const srv = join(root, 'srv');
  const target = join(root, 'checkout');
  const apply = localApply(root, 'gd', srv);
  const repo = gitRepo(join(root, 'upstream'));
  let c1 = '';
  let c2 = '';
  const sls = (rev: string, more = '') =>
    writeFileSync(
      join(srv, 'gd.sls'),
      `x:\n  git.detached:\n    - name: ${repo.dir}\n    - target: ${target}\n    - rev: ${rev}\n${more}`,
    );
  const head = () => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: target }).toString().trim();

  beforeAll(() => {
    mkdirSync(srv, { recursive: true });
    c1 = repo.commit({ f: '1' }, 'one');
    repo.git('tag', 'v1');
    c2 = repo.commit({ f: '2' }, 'two');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('clones and detaches HEAD at a tag, then at a commit id, and says when it is there', async () => {
    sls('v1');
    expect((await apply('gd', 'test=True')).x).toMatchObject({
      result: null,
      comment: `Repository ${repo.dir} would be cloned to ${target}`,
      changes: {},
    });
    expect((await apply('gd')).x).toMatchObject({
      result: true,
      comment: `${repo.dir} cloned to ${target}. Commit ID ${c1} was checked out at ${target}.`,
      changes: { HEAD: { old: null, new: c1 } },
    });
    expect(head()).toBe(c1);
    expect((await apply('gd')).x).toMatchObject({
      result: true,
      comment: 'Already checked out at correct revision',
      changes: {},
    });
    sls(c2.slice(0, 8).toUpperCase());
    expect((await apply('gd', 'test=True')).x).toMatchObject({
      result: null,
      comment: `Commit ID ${c2.slice(0, 8)} would be checked out at ${target}`,
      changes: { HEAD: { old: c1, new: c2.slice(0, 8) } },
    });
    expect((await apply('gd')).x).toMatchObject({
      result: true,
      comment: `Commit ID ${c2.slice(0, 8)} was checked out at ${target}`,
      changes: { HEAD: { old: c1, new: c2 } },
    });
    expect(head()).toBe(c2);
    sls('nosuch');
    expect((await apply('gd')).x).toMatchObject({
      result: false,
      comment: "Revision 'nosuch' does not exist",
    });
  }, 120_000);

  it('refuses a target that is not absolute, and one that is not a repository and not empty', async () => {
    writeFileSync(
      join(srv, 'bad.sls'),
      `rel:\n  git.detached:\n    - name: ${repo.dir}\n    - target: rel/t\n    - rev: v1\nfull:\n  git.detached:\n    - name: ${repo.dir}\n    - target: ${srv}\n    - rev: v1\n`,
    );
    const ret = await apply('bad');
    expect(ret.rel).toMatchObject({ result: false, comment: "Target 'rel/t' is not an absolute path" });
    expect(ret.full).toMatchObject({
      result: false,
      comment: `Target '${srv}' exists, is non-empty and is not a git repository. Set the 'force_clone' option to True to remove this directory's contents and proceed with cloning the remote repository`,
    });
  }, 60_000);
});
