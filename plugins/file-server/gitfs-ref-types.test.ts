// gitfs_ref_types (global and per remote) and per-remote update_interval, against real local
// repositories. The saltenvs and file lists were checked against Salt 3006.18's gitfs (GitPython)
// with `salt-call --local cp.envs` / `cp.list_master saltenv=...` on the same repository.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { gitRepo } from '../../test/support/git-repo.js';
import { localFileServer } from './local-channel.js';
import { updateBuckets } from './update-buckets.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-gitfs-reftypes-'));
afterAll(() => rmSync(top, { recursive: true, force: true }));

// master (base), dev, tag v1, and a branch and a tag both named `both` with different files
const src = gitRepo(join(top, 'src'));
const first = src.commit({ 'a.sls': 'one' });
src.git('tag', 'v1');
src.git('checkout', '-qb', 'dev');
const devCommit = src.commit({ 'd.sls': 'dev' });
src.git('checkout', '-qb', 'both', 'master');
src.commit({ 'both-branch.sls': 'b' });
src.git('checkout', '-q', 'master');
src.commit({ 'both-tag.sls': 't' });
src.git('tag', 'both');
src.git('reset', '-q', '--hard', 'HEAD~1');
src.commit({ 'b.sls': 'two' });

let cache = 0;
async function gitfs(extra: Record<string, unknown>) {
  const fs = localFileServer(
    {
      file_roots: {},
      cachedir: join(top, `c${cache++}`),
      hash_type: 'sha256',
      file_buffer_size: 1024,
      extra: { fileserver_backend: ['gitfs'], gitfs_remotes: [src.url], ...extra },
    },
    pino({ level: 'silent' }),
  );
  await fs.update();
  return { envs: () => fs.fileEnvs(), list: (saltenv: string) => fs.fileList({ saltenv }) };
}

describe('gitfs_ref_types', () => {
  it('by default branches and tags are saltenvs, and saltenv=<commit> (full or short) serves it', async () => {
    const g = await gitfs({});
    expect(await g.envs()).toEqual(['base', 'both', 'dev', 'v1']);
    expect(await g.list(devCommit)).toEqual(['a.sls', 'd.sls']);
    expect(await g.list(devCommit.slice(0, 7))).toEqual(['a.sls', 'd.sls']);
    // a branch wins over a tag of the same name
    expect(await g.list('both')).toEqual(['a.sls', 'both-branch.sls']);
    expect(await g.list('0000000')).toEqual([]);
  });

  it('[branch]: no tag saltenvs and no commits', async () => {
    const g = await gitfs({ gitfs_ref_types: ['branch'] });
    expect(await g.envs()).toEqual(['base', 'both', 'dev']);
    expect(await g.list('v1')).toEqual([]);
    expect(await g.list(devCommit)).toEqual([]);
  });

  it('[tag]: only tags (no base), and [Tag, branch] looks a name up as a tag first', async () => {
    const tags = await gitfs({ gitfs_ref_types: ['tag'] });
    expect(await tags.envs()).toEqual(['both', 'v1']);
    expect(await tags.list('base')).toEqual([]);
    expect(await tags.list('both')).toEqual(['a.sls', 'both-tag.sls']);
    const ordered = await gitfs({ gitfs_ref_types: 'Tag,branch' });
    expect(await ordered.list('both')).toEqual(['a.sls', 'both-tag.sls']);
  });

  it('per remote ref_types override the global list; sha alone lists nothing but serves commits', async () => {
    const per = await gitfs({ gitfs_remotes: [{ [src.url]: [{ ref_types: ['tag'] }] }] });
    expect(await per.envs()).toEqual(['both', 'v1']);
    const sha = await gitfs({ gitfs_ref_types: ['sha'] });
    expect(await sha.envs()).toEqual([]);
    expect(await sha.list(first)).toEqual(['a.sls']);
  });

  it('a commit as gitfs_base or as a saltenv ref', async () => {
    const base = await gitfs({ gitfs_base: devCommit });
    expect(await base.envs()).toEqual(['base', 'both', 'dev', 'master', 'v1']);
    expect(await base.list('base')).toEqual(['a.sls', 'd.sls']);
    const mapped = await gitfs({
      gitfs_remotes: [{ [src.url]: [{ saltenv: [{ prod: [{ ref: first.slice(0, 8) }] }] }] }],
    });
    expect(await mapped.envs()).toEqual(['base', 'both', 'dev', 'prod', 'v1']);
    expect(await mapped.list('prod')).toEqual(['a.sls']);
  });

  it('with disable_saltenv_mapping a commit is no saltenv', async () => {
    const g = await gitfs({ gitfs_disable_saltenv_mapping: true });
    expect(await g.envs()).toEqual(['base']);
    expect(await g.list(first)).toEqual([]);
  });

  it('an unknown ref type or a bad update_interval is refused at start', async () => {
    await expect(gitfs({ gitfs_ref_types: ['branch', 'bogus'] })).rejects.toThrow(
      /invalid ref_types: bogus\. The supported values are: branch, tag, sha/,
    );
    await expect(gitfs({ gitfs_remotes: [{ [src.url]: [{ update_interval: 'soon' }] }] })).rejects.toThrow(
      /update_interval must be a whole number/,
    );
  });
});

describe('per-remote update_interval (Salt FileserverUpdate buckets)', () => {
  it('puts each remote in the bucket of its interval, 0 meaning 60, other backends on gitfs_update_interval', () => {
    const fs = localFileServer(
      {
        file_roots: { base: [top] },
        cachedir: join(top, 'buckets'),
        hash_type: 'sha256',
        file_buffer_size: 1024,
        extra: {
          fileserver_backend: ['roots', 'gitfs'],
          gitfs_update_interval: 300,
          gitfs_remotes: [
            { [src.url]: [{ name: 'fast' }, { update_interval: 5 }] },
            { [src.url]: [{ name: 'zero' }, { update_interval: 0 }] },
            { [src.url]: [{ name: 'plain' }] },
          ],
        },
      },
      pino({ level: 'silent' }),
    );
    const buckets = updateBuckets(fs.backends(), 300);
    const shape = [...buckets].map(([every, b]) => [every, b.map((e) => [e.name, e.ids])]);
    expect(shape).toEqual([
      [5, [['gitfs', ['fast']]]],
      [60, [['gitfs', ['zero']]]],
      [300, [['gitfs', ['plain']]]],
    ]);
  });
});
