import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import gitMod from '../modules/git.js';
import { moduleCtx, runState } from './_test-ctx.js';
import git from './git.js';

// A real repository whose local config has a multivar (foo.bar), a plain key (foo.baz) and
// another section; expectations: Salt 3006.18's returns for the same steps (salt-call --local:
// 22 of 26 identical; the 4 others are Salt's KeyError when a key goes away entirely, 3 cases,
// and the usage text). Where Salt crashes, tsalt answers what Salt's code means to answer.
const ctx = moduleCtx([cmdMod, gitMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(git, fn, kw, { ctx, test });
const dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-gitunset-'));
const repo = path.join(dir, 'repo');
const sh = (...args: string[]) => execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8' });
const config = () =>
  sh('config', '--local', '--list')
    .split('\n')
    .filter((l) => l && !l.startsWith('core.'));

beforeEach(() => {
  rmSync(repo, { recursive: true, force: true });
  execFileSync('git', ['init', '-q', repo]);
  sh('config', 'foo.bar', 'one');
  sh('config', '--add', 'foo.bar', 'two');
  sh('config', 'foo.baz', 'three');
  sh('config', 'other.x', 'y');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!which('git'))('git.config_unset', () => {
  it('test=True says what would go; nothing changes', async () => {
    expect(await st('config_unset', { name: 'foo\\..+', repo, all: true }, true)).toEqual({
      name: 'foo\\..+',
      changes: { 'foo.bar': ['one', 'two'], 'foo.baz': ['three'] },
      result: null,
      comment: '2 key(s) would have value(s) unset',
    });
    expect(config()).toEqual(['foo.bar=one', 'foo.bar=two', 'foo.baz=three', 'other.x=y']);
  });

  it('a value of a multivar by value_regex, then nothing left to match', async () => {
    expect(await st('config_unset', { name: 'foo.bar', repo, value_regex: 'one' })).toEqual({
      name: 'foo.bar',
      changes: { 'foo.bar': ['one'] },
      result: true,
      comment: 'Value(s) successfully unset',
    });
    expect(config()).toEqual(['foo.bar=two', 'foo.baz=three', 'other.x=y']);
    expect(await st('config_unset', { name: 'foo.bar', repo, value_regex: 'one' })).toEqual({
      name: 'foo.bar',
      changes: {},
      result: true,
      comment: 'No matching keys are set',
    });
  });

  it('a multivar needs all=True; with it every value goes', async () => {
    expect(await st('config_unset', { name: 'foo.bar', repo })).toEqual({
      name: 'foo.bar',
      changes: {},
      result: false,
      comment:
        "Multivar(s) matched by the key expression (set 'all' to True to force removal): foo.bar (one, two)",
    });
    expect((await st('config_unset', { name: 'foo.bar', repo, value_regex: 'o' })).comment).toBe(
      "Multiple values are matched by value_regex for the following keys (set 'all' to True to force removal): foo.bar (one, two)",
    );
    // git config --unset-all takes a key name, not the regex: Salt's own failure, word for word
    expect(await st('config_unset', { name: 'foo\\..+', repo, all: true })).toEqual({
      name: 'foo\\..+',
      changes: {},
      result: false,
      comment:
        'Error(s) occurred unsetting values for the following keys (see the minion log for details): foo.bar, foo.baz',
    });
    expect(await st('config_unset', { name: 'foo.bar', repo, all: true })).toEqual({
      name: 'foo.bar',
      changes: { 'foo.bar': ['one', 'two'] },
      result: true,
      comment: 'Value(s) successfully unset',
    });
    expect(config()).toEqual(['foo.baz=three', 'other.x=y']);
  });

  it("Salt's argument errors, and the module's own", async () => {
    expect(await st('config_unset', { name: 'foo.baz' })).toMatchObject({
      result: false,
      comment: "Non-global config options require the 'repo' argument to be set",
    });
    expect(await st('config_unset', { name: 'foo.baz', repo, bogus: 1 })).toMatchObject({
      result: false,
      comment: 'The following keyword arguments are not valid: bogus=1',
    });
    await expect(ctx.call('git.config_unset', ['nope.key'], { cwd: repo })).rejects.toThrow(
      "Key 'nope.key' does not exist",
    );
    await expect(ctx.call('git.config_unset', ['foo.bar'], { cwd: repo })).rejects.toThrow(
      "Multiple values exist for key 'foo.bar'",
    );
    await expect(ctx.call('git.config_unset', ['foo.bar'], { cwd: repo, value_regex: 'o' })).rejects.toThrow(
      "Multiple values exist for key 'foo.bar' and value_regex matches multiple values",
    );
    await expect(
      ctx.call('git.config_unset', ['foo.bar'], { cwd: repo, value_regex: '(', all: true }),
    ).rejects.toThrow('The value_regex is invalid');
    expect(await ctx.call('git.config_unset', ['foo.baz'], { cwd: repo })).toBe(true);
    expect(config()).toEqual(['foo.bar=one', 'foo.bar=two', 'other.x=y']);
  });
});
