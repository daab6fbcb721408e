import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { type GitRepo, gitRepo } from '../test/support/git-repo.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import gitMod from './git.js';

const identity = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.invalid',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.invalid',
};

// commit, add, rm, stash, rebase, merge_tree, archive, push on real throwaway repositories, called
// positionally with Salt's signatures; push goes to a bare repository on disk.
describe.skipIf(!which('git'))('git history functions', () => {
  let dir: string;
  let repo: GitRepo;
  let remote: string;
  const ctx = moduleCtx([cmdMod, gitMod]);
  const saved = { ...process.env };

  beforeAll(() => {
    Object.assign(process.env, identity);
    dir = mkdtempSync(join(tmpdir(), 'tsalt-t-githist-'));
    repo = gitRepo(join(dir, 'repo'));
    repo.commit({ a: 'a\n', b: 'b\n', 'sub/s': 's\n' }, 'one');
    repo.git('branch', 'dev');
    repo.commit({ a: 'a2\n' }, 'two');
    repo.git('checkout', '-q', 'dev');
    repo.commit({ c: 'c\n' }, 'devc');
    repo.git('checkout', '-q', 'master');
    remote = join(dir, 'remote.git');
    execFileSync('git', ['init', '-q', '--bare', remote]);
    repo.git('remote', 'add', 'origin', remote);
  });
  afterAll(() => {
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('commit: a message, opts, and filename (a tracked file, unstaged); a failure is a clean error', async () => {
    writeFileSync(join(repo.dir, 'a'), 'a3\n');
    writeFileSync(join(repo.dir, 'b'), 'b3\n');
    // cwd, message, opts, git_opts, user, password, filename
    const out = (await ctx.call('git.commit', [repo.dir, 'only a', '', '', null, null, 'a'])) as string;
    expect(out).toMatch(/^\[master [0-9a-f]+\] only a\n 1 file changed/);
    expect(repo.git('show', '--name-only', '--format=%s', 'HEAD')).toBe('only a\n\na');
    await ctx.call('git.commit', [repo.dir, 'all', '-a']);
    expect(repo.git('log', '-1', '--format=%s')).toBe('all');
    await expect(ctx.call('git.commit', [repo.dir, 'nothing'])).rejects.toThrow(
      "Command 'git commit -m nothing' failed",
    );
  });

  it('add: always --verbose (a -v in opts not repeated), --dry-run adds nothing, a bad path is a clean error', async () => {
    writeFileSync(join(repo.dir, 'new1'), 'n\n');
    writeFileSync(join(repo.dir, 'new2'), 'n\n');
    // cwd, filename, opts
    expect(await ctx.call('git.add', [repo.dir, 'new1', '--dry-run'])).toBe("add 'new1'");
    expect(repo.git('status', '--porcelain')).toBe('?? new1\n?? new2');
    expect(await ctx.call('git.add', [repo.dir, 'new1', '-v'])).toBe("add 'new1'");
    expect(await ctx.call('git.add', [repo.dir, '.'])).toBe("add 'new2'");
    await expect(ctx.call('git.add', [repo.dir, 'nofile'])).rejects.toThrow(
      "Command 'git add --verbose -- nofile' failed: fatal: pathspec 'nofile' did not match any files",
    );
    repo.git('reset', '-q', '--hard');
  });

  it('rm: removes a file, a directory with -r, and refuses a directory without it', async () => {
    expect(await ctx.call('git.rm', [repo.dir, 'b'])).toBe("rm 'b'");
    await expect(ctx.call('git.rm', [repo.dir, 'sub'])).rejects.toThrow(
      "Command 'git rm -- sub' failed: fatal: not removing 'sub' recursively without -r",
    );
    expect(await ctx.call('git.rm', [repo.dir, 'sub', '-r'])).toBe("rm 'sub/s'");
    repo.git('reset', '-q', '--hard');
  });

  it('stash: save by default, then list and pop', async () => {
    writeFileSync(join(repo.dir, 'a'), 'wip\n');
    expect(await ctx.call('git.stash', [repo.dir])).toMatch(
      /^Saved working directory and index state WIP on master/,
    );
    expect(await ctx.call('git.stash', [repo.dir, 'list'])).toMatch(/^stash@\{0\}: WIP on master/);
    await ctx.call('git.stash', [repo.dir, 'pop']);
    expect(repo.git('status', '--porcelain')).toBe('M a');
    repo.git('checkout', '--', 'a');
  });

  it('rebase: refuses -i, splits rev as a shell would, and rebases', async () => {
    await expect(ctx.call('git.rebase', [repo.dir, 'dev', '-i'])).rejects.toThrow(
      'Interactive rebases are not supported',
    );
    repo.git('checkout', '-q', 'dev');
    await ctx.call('git.rebase', [repo.dir, 'master']);
    expect(repo.git('merge-base', '--is-ancestor', 'master', 'dev')).toBe('');
    await expect(ctx.call('git.rebase', [repo.dir, 'nosuchrev'])).rejects.toThrow(
      "Command 'git rebase nosuchrev' failed: fatal: invalid upstream 'nosuchrev'",
    );
    repo.git('checkout', '-q', 'master');
  });

  it('merge_tree: the merge base found for the caller, and a clean error without one', async () => {
    const base = repo.git('merge-base', 'master', 'dev');
    const out = await ctx.call('git.merge_tree', [repo.dir, 'master', 'dev']);
    expect(out).toBe(repo.git('merge-tree', base, 'master', 'dev'));
    await expect(ctx.call('git.merge_tree', [repo.dir, 'master', 'nosuch'])).rejects.toThrow(
      'Unable to determine merge base for master and nosuch',
    );
    await expect(ctx.call('git.merge_tree', [join(dir, 'nonexist'), 'a', 'b'])).rejects.toThrow(
      'Unable to determine merge base for a and b',
    );
  });

  it('archive: the checkout basename as prefix unless given; format= as a keyword; others refused', async () => {
    const out = join(dir, 'out.tar');
    expect(await ctx.call('git.archive', [repo.dir, out])).toBe(true);
    const names = execFileSync('tar', ['tf', out], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toContain('repo/a');
    expect(await ctx.call('git.archive', [join(repo.dir, 'sub'), out, 'HEAD', ''])).toBe(true);
    expect(execFileSync('tar', ['tf', out], { encoding: 'utf8' }).trim()).toBe('s');
    const bin = join(dir, 'out.bin');
    expect(await ctx.call('git.archive', [repo.dir, bin], { format: 'zip', prefix: 'x/' })).toBe(true);
    expect(execFileSync('unzip', ['-Z1', bin], { encoding: 'utf8' })).toContain('x/a');
    await expect(ctx.call('git.archive', [repo.dir, out], { overwrite: true })).rejects.toThrow(
      'The following keyword arguments are not valid: overwrite=True',
    );
  });

  it('push: to a bare repository; a missing ref reaches git as None and fails as Salt fails', async () => {
    // cwd, remote, ref
    expect(await ctx.call('git.push', [repo.dir, 'origin', 'master'])).toBe('');
    expect(execFileSync('git', ['-C', remote, 'rev-parse', 'master'], { encoding: 'utf8' }).trim()).toBe(
      repo.git('rev-parse', 'master'),
    );
    await expect(ctx.call('git.push', [repo.dir, 'origin'])).rejects.toThrow(
      'sequence item 3: expected str instance, NoneType found',
    );
    await expect(ctx.call('git.push', [repo.dir, 'origin', 'master'], { bogus: 1 })).rejects.toThrow(
      'The following keyword arguments are not valid: bogus=1',
    );
  });

  it('config_get_regex is config_get_regexp', async () => {
    expect(await ctx.call('git.config_get_regex', ['^remote'], { cwd: repo.dir })).toEqual({
      'remote.origin.url': [remote],
      'remote.origin.fetch': ['+refs/heads/*:refs/remotes/origin/*'],
    });
    expect(existsSync(remote)).toBe(true);
  });
});
