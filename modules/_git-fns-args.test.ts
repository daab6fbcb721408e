import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import cmdMod from './cmd.js';
import gitMod from './git.js';

// git functions called with Salt's signatures, positionally, on a real repository.
describe.skipIf(!which('git'))('git functions take Salt arguments', () => {
  let repo: string;
  const ctx = moduleCtx([cmdMod, gitMod]);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, encoding: 'utf8' }).trim();

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'tsalt-t-gitargs-'));
    git('init', '-q', '-b', 'main');
    git('config', 'user.email', 't@example.com');
    git('config', 'user.name', 'T');
    for (const n of ['a', 'b']) {
      writeFileSync(join(repo, n), n);
      git('add', n);
      git('commit', '-qm', n);
    }
  });
  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('tag: a message makes an annotated tag; -m in opts is refused; stdout is returned', async () => {
    // cwd, name, ref, message
    expect(await ctx.call('git.tag', [repo, 'v1', 'HEAD~1', 'first release'])).toBe('');
    expect(git('cat-file', '-t', 'v1')).toBe('tag');
    expect(git('rev-parse', 'v1^{commit}')).toBe(git('rev-parse', 'HEAD~1'));
    expect(await ctx.call('git.tag', [repo, 'v2'])).toBe('');
    expect(git('cat-file', '-t', 'v2')).toBe('commit');
    await expect(ctx.call('git.tag', [repo, 'v3'], { opts: '-m x' })).rejects.toThrow(
      'Tag messages must be passed in the "message" argument',
    );
  });

  it('merge_base: positional octopus/is_ancestor/independent/fork_point and all=True, as Salt', async () => {
    const head = git('rev-parse', 'HEAD');
    const first = git('rev-parse', 'HEAD~1');
    // cwd, refs, octopus, is_ancestor
    expect(await ctx.call('git.merge_base', [repo, [first, head], false, true])).toBe(true);
    expect(await ctx.call('git.merge_base', [repo, `${head},${first}`, false, true])).toBe(false);
    expect(await ctx.call('git.merge_base', [repo, [first, head]], { all: true })).toEqual([first]);
    expect(await ctx.call('git.merge_base', [repo, [first, head], false, false, true])).toBe(head);
    await expect(ctx.call('git.merge_base', [repo, [first, head], true, true])).rejects.toThrow(
      "Only one of 'octopus', 'independent', 'is_ancestor', and 'fork_point' is permitted",
    );
    await expect(
      ctx.call('git.merge_base', [repo, [first]], { all: true, is_ancestor: true }),
    ).rejects.toThrow(
      "The 'all' argument is not compatible with 'independent', 'is_ancestor', or 'fork_point'",
    );
    await expect(ctx.call('git.merge_base', [repo, [first, head]], { bogus: 1 })).rejects.toThrow(
      'The following keyword arguments are not valid: bogus=1',
    );
  });

  it('merge and submodule take **kwargs only to refuse them, as Salt', async () => {
    await expect(ctx.call('git.merge', [repo], { bogus: 'x' })).rejects.toThrow(
      'The following keyword arguments are not valid: bogus=x',
    );
    await expect(ctx.call('git.submodule', [repo, 'update'], { init: true })).rejects.toThrow(
      "The 'init' argument is no longer supported.",
    );
  });

  it('remote_set: push_url with its own https credentials, checked as Salt checks them', async () => {
    // cwd, url, remote, user, password, https_user, https_pass, push_url, push_https_user
    const set = [
      repo,
      'https://example.com/r.git',
      'up',
      null,
      null,
      null,
      null,
      'http://example.com/p.git',
      'bob',
    ];
    await expect(ctx.call('git.remote_set', set)).rejects.toThrow('Basic Auth only supported for HTTPS');
    set[7] = 'https://example.com/p.git';
    expect(await ctx.call('git.remote_set', set)).toEqual({
      fetch: 'https://example.com/r.git',
      push: 'https://example.com/p.git',
    });
  });

  it("config_unset global=True of a missing key: Salt's 'cwd' argument required error", async () => {
    const home = mkdtempSync(join(tmpdir(), 'tsalt-t-githome-'));
    const saved = process.env.HOME;
    process.env.HOME = home;
    try {
      await expect(ctx.call('git.config_unset', ['tsalt.nokey'], { global: true })).rejects.toThrow(
        "'cwd' argument required unless global=True",
      );
      await expect(ctx.call('git.config_unset', ['tsalt.nokey'], { cwd: repo })).rejects.toThrow(
        "Key 'tsalt.nokey' does not exist",
      );
    } finally {
      process.env.HOME = saved;
      rmSync(home, { recursive: true, force: true });
    }
  });
});
