/**
 * gitfs `ref_types` and per-remote `update_interval` on a real master and minion: a minion asks
 * for `saltenv=<commit>` (Salt's `sha` ref type), a remote kept out of tags by its own
 * `ref_types` lists none, and the fileserver-update process refreshes a remote with
 * `update_interval: 1` on its own while the other waits for `gitfs_update_interval` (an hour).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from '../../tools/local-cluster.js';
import { type GitRepo, gitRepo } from '../support/git-repo.js';

describe('gitfs: ref_types and per-remote update_interval', () => {
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master });
  let fast: GitRepo;
  let slow: GitRepo;
  let firstCommit = '';

  beforeAll(async () => {
    fast = gitRepo(join(c.root, 'fast'));
    firstCommit = fast.commit({ 'one.sls': 'one\n' });
    fast.commit({ 'two.sls': 'two\n' });
    fast.git('tag', 'v1');
    slow = gitRepo(join(c.root, 'slow'));
    slow.commit({ 'old.sls': 'old\n' });
    slow.git('tag', 'v9');
    Object.assign(master, {
      file_roots: { base: [] },
      fileserver_backend: ['gitfs'],
      gitfs_update_interval: 3600,
      gitfs_remotes: [
        { [fast.url]: [{ name: 'fast' }, { update_interval: 1 }] },
        { [slow.url]: [{ name: 'slow' }, { mountpoint: 'salt://slow' }, { ref_types: ['branch'] }] },
      ],
    });
    await c.startMaster();
    await c.startMinion('g1');
  }, 120_000);
  afterAll(() => c.stop());

  it('a minion gets saltenv=<commit> from the sha ref type; a branch-only remote lists no tags', async () => {
    const r = await c.saltJson(['g1', 'cp.list_master', `saltenv=${firstCommit.slice(0, 10)}`]);
    expect(r.data).toEqual({ g1: ['one.sls'] });
    const envs = await c.saltJson(['g1', 'cp.envs']);
    expect([...(envs.data.g1 as string[])].sort()).toEqual(['base', 'v1']);
    const v1 = await c.saltJson(['g1', 'cp.list_master', 'saltenv=v1']);
    expect(v1.data).toEqual({ g1: ['one.sls', 'two.sls'] });
  });

  it('the remote with update_interval 1 is fetched on its own; the other waits for its hour', async () => {
    const list = async () =>
      JSON.parse((await c.saltRun(['--out', 'json', 'fileserver.file_list'])).stdout) as string[];
    expect(await list()).toEqual(['one.sls', 'slow/old.sls', 'two.sls']);
    slow.commit({ 'new-slow.sls': 'x\n' });
    fast.commit({ 'three.sls': 'three\n' });
    const deadline = Date.now() + 30_000;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = await list();
      if (seen.includes('three.sls')) break;
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(seen).toEqual(['one.sls', 'slow/old.sls', 'three.sls', 'two.sls']);
  });
});
