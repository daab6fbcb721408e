import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { type GitRepo, gitRepo } from '../test/support/git-repo.js';
import { memoryLogger } from './_fake-ctx.js';
import { parseWorktreeList } from './_git-fns-linked.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import gitMod from './git.js';

describe('parseWorktreeList', () => {
  it('reads blocks, detached heads, and leaves out incomplete ones (a bare repository)', () => {
    const log = memoryLogger();
    const out =
      'worktree /r\nHEAD abc\nbranch refs/heads/master\n\nworktree /w\nHEAD def\ndetached\nlocked\n\nworktree /b.git\nbare\n';
    expect(parseWorktreeList(out, log)).toEqual([
      { worktree: '/r', HEAD: 'abc', branch: 'refs/heads/master' },
      { worktree: '/w', HEAD: 'def', branch: 'detached' },
    ]);
    expect(JSON.stringify(log.lines)).toContain("Untracked line item 'locked'");
    expect(JSON.stringify(log.lines)).toContain('missing the following information: HEAD, branch');
  });
});

// list_worktrees, worktree_add, worktree_prune, worktree_rm on a real repository.
describe.skipIf(!which('git'))('git linked worktrees', () => {
  let dir: string;
  let repo: GitRepo;
  const ctx = moduleCtx([cmdMod, gitMod]);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tsalt-t-gitwt-'));
    repo = gitRepo(join(dir, 'repo'));
    repo.commit({ a: 'a\n' }, 'one');
    repo.git('tag', 'v1');
    repo.commit({ a: 'b\n' }, 'two');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('worktree_add: a branch named after the path, branch=, detach; both branch and detach refused', async () => {
    // cwd, worktree_path, ref
    const out = await ctx.call('git.worktree_add', [repo.dir, join(dir, 'w1')]);
    expect(out).toMatch(/^Preparing worktree \(new branch 'w1'\)/);
    await ctx.call('git.worktree_add', [repo.dir, join(dir, 'w2'), 'v1'], { branch: 'bb' });
    expect(repo.git('rev-parse', 'bb')).toBe(repo.git('rev-parse', 'v1^{commit}'));
    // cwd, worktree_path, ref, reset_branch, force, detach
    await ctx.call('git.worktree_add', [repo.dir, join(dir, 'w3'), 'v1', null, null, true]);
    await expect(
      ctx.call('git.worktree_add', [repo.dir, join(dir, 'w4')], { branch: 'x', detach: true }),
    ).rejects.toThrow("Only one of 'branch' and 'detach' is allowed");
    await expect(ctx.call('git.worktree_add', [repo.dir, join(dir, 'w4')], { branch: 'w1' })).rejects.toThrow(
      "fatal: a branch named 'w1' already exists",
    );
  });

  it('list_worktrees: branches, a detached head with its tags, stale ones only with all/stale', async () => {
    await ctx.call('git.worktree_add', [repo.dir, join(dir, 'gone')]);
    rmSync(join(dir, 'gone'), { recursive: true });
    const head = repo.git('rev-parse', 'HEAD');
    const v1 = repo.git('rev-parse', 'v1^{commit}');
    const live = await ctx.call('git.list_worktrees', [repo.dir]);
    expect(live).toEqual({
      [repo.dir]: { stale: false, HEAD: head, detached: false, branch: 'master' },
      [join(dir, 'w1')]: { stale: false, HEAD: head, detached: false, branch: 'w1' },
      [join(dir, 'w2')]: { stale: false, HEAD: v1, detached: false, branch: 'bb' },
      [join(dir, 'w3')]: { stale: false, HEAD: v1, detached: true, branch: null, tags: ['v1'] },
    });
    // cwd, stale
    expect(await ctx.call('git.list_worktrees', [repo.dir, true])).toEqual({
      [join(dir, 'gone')]: { stale: true, HEAD: head, detached: false, branch: 'gone' },
    });
    expect(
      Object.keys((await ctx.call('git.list_worktrees', [repo.dir], { all: true })) as object),
    ).toHaveLength(5);
    await expect(ctx.call('git.list_worktrees', [repo.dir, true], { all: true })).rejects.toThrow(
      "'all' and 'stale' cannot both be set to True",
    );
  });

  it('worktree_prune: dry_run reports, then prunes (git > 2.35 reports on stderr)', async () => {
    // cwd, dry_run
    const dry = await ctx.call('git.worktree_prune', [repo.dir, true]);
    expect(dry).toMatch(/^Removing worktrees\/gone: gitdir file points to non-existent location/);
    expect(repo.git('worktree', 'list')).toContain('gone');
    await ctx.call('git.worktree_prune', [repo.dir]);
    expect(repo.git('worktree', 'list')).not.toContain('gone');
  });

  it('worktree_rm: removes a linked worktree only', async () => {
    expect(await ctx.call('git.worktree_rm', [join(dir, 'w1')])).toBe(true);
    expect(existsSync(join(dir, 'w1'))).toBe(false);
    await expect(ctx.call('git.worktree_rm', [repo.dir])).rejects.toThrow(
      `${repo.dir} is not a git worktree`,
    );
    await expect(ctx.call('git.worktree_rm', [join(dir, 'nope')])).rejects.toThrow(
      `${join(dir, 'nope')} does not exist`,
    );
    expect(existsSync(repo.dir)).toBe(true);
  });
});
