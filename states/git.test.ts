import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import fileMod from '../modules/file.js';
import gitMod from '../modules/git.js';
import { moduleCtx, runState } from './_test-ctx.js';
import git from './git.js';

// Local repositories over file://; expectations: Salt 3006.18's returns for the same steps
// (checked side by side with salt-call --local).
const ctx = moduleCtx([cmdMod, fileMod, gitMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(git, fn, kw, { ctx, test });
let dir: string;
let src: string;
let url: string;
const sh = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], {
    cwd,
    encoding: 'utf8',
  }).trim();
const commit = (msg: string) => {
  writeFileSync(path.join(src, 'f'), `${msg}\n`, { flag: 'a' });
  sh(src, 'add', 'f');
  sh(src, 'commit', '-qm', msg);
  sh(src, 'push', '-q', path.join(dir, 'remote.git'), 'main', '--tags');
  return sh(src, 'rev-parse', 'HEAD');
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-gitst-'));
  src = path.join(dir, 'src');
  mkdirSync(src);
  sh(src, 'init', '-q', '-b', 'main');
  sh(src, 'commit', '-q', '--allow-empty', '-m', 'one');
  sh(dir, 'init', '-q', '--bare', '-b', 'main', 'remote.git');
  url = `file://${dir}/remote.git`;
  commit('two');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!which('git'))('git.latest', () => {
  it('predicts, clones, then is up-to-date', async () => {
    const target = path.join(dir, 'co');
    expect(await st('latest', { name: url, target }, true)).toEqual({
      name: url,
      result: null,
      comment: `Repository ${url} would be cloned to ${target}`,
      changes: { new: `${url} => ${target}` },
    });
    const head = sh(src, 'rev-parse', 'HEAD');
    expect(await st('latest', { name: url, target })).toEqual({
      name: url,
      result: true,
      comment: `${url} cloned to ${target}`,
      changes: { new: `${url} => ${target}`, revision: { old: null, new: head } },
    });
    const same = { name: url, result: true, comment: `Repository ${target} is up-to-date`, changes: {} };
    expect(await st('latest', { name: url, target }, true)).toEqual(same);
    expect(await st('latest', { name: url, target })).toEqual(same);
  });

  it('fetches and fast-forwards when the remote moves on', async () => {
    const target = path.join(dir, 'co');
    const old = sh(target, 'rev-parse', 'HEAD');
    const now = commit('three');
    expect(await st('latest', { name: url, target }, true)).toEqual({
      name: url,
      result: null,
      comment: `Remote 'origin' would be fetched. Repository would be updated from ${old.slice(0, 7)} to ${now.slice(0, 7)}.`,
      changes: { revision: { old, new: now } },
    });
    expect(await st('latest', { name: url, target })).toEqual({
      name: url,
      result: true,
      comment: `${url} was fetched, resulting in updated refs. Repository was fast-forwarded to remote HEAD (${now.slice(0, 7)}).`,
      changes: { revision: { old, new: now } },
    });
  });

  it('keeps uncommitted changes unless force_reset', async () => {
    const target = path.join(dir, 'co');
    writeFileSync(path.join(target, 'f'), 'dirty\n', { flag: 'a' });
    expect((await st('latest', { name: url, target })).comment).toBe(
      `Repository ${target} is up-to-date, but with uncommitted changes. Set 'force_reset' to True to purge uncommitted changes.`,
    );
  });

  it('checks out a new local branch tracking the remote one', async () => {
    const target = path.join(dir, 'co2');
    const r = await st('latest', { name: url, target, rev: 'main', branch: 'work' });
    expect(r.result).toBe(true);
    expect(r.comment).toBe(
      `${url} cloned to ${target}. Branch 'work' checked out, with origin/main (${sh(src, 'rev-parse', '--short=7', 'HEAD')}) as a starting point.`,
    );
    expect(sh(target, 'rev-parse', '--abbrev-ref', 'work@{upstream}')).toBe('origin/main');
  });

  it('refuses bad arguments and targets with Salt words', async () => {
    expect((await st('latest', { name: url, target: 'rel/path' })).comment).toBe(
      "target 'rel/path' is not an absolute path",
    );
    expect((await st('latest', { name: url, target: path.join(dir, 'x'), rev: 'nope' })).comment).toBe(
      "No revision matching 'nope' exists in the remote repository",
    );
    expect((await st('latest', { name: url, target: dir })).comment).toBe(
      `Target '${dir}' exists, is non-empty and is not a git repository. Set the 'force_clone' option to True to remove this directory's contents and proceed with cloning the remote repository`,
    );
    const missing = await st('latest', { name: `file://${dir}/nothere.git`, target: path.join(dir, 'y') });
    expect(missing.result).toBe(false);
    expect(missing.comment).toMatch(/^Failed to check remote refs: /);
    expect(
      (
        await st('latest', {
          name: 'http://example.invalid/r.git',
          target: path.join(dir, 'z'),
          https_user: 'u',
        })
      ).comment,
    ).toBe('Basic Auth only supported for HTTPS');
  });
});

describe.skipIf(!which('git'))('git.present, git.cloned, git.config_set', () => {
  it('initialises a repository once', async () => {
    const name = path.join(dir, 'nb');
    expect(await st('present', { name, bare: false }, true)).toEqual({
      name,
      result: null,
      comment: 'New repository would be created',
      changes: { new: name },
    });
    expect(await st('present', { name, bare: false })).toEqual({
      name,
      result: true,
      comment: `Initialized repository in ${name}`,
      changes: { new: name },
    });
    expect(await st('present', { name, bare: false })).toEqual({
      name,
      result: true,
      comment: '',
      changes: {},
    });
  });

  it('clones once and reports it already cloned', async () => {
    const target = path.join(dir, 'cl');
    expect(await st('cloned', { name: url, target })).toEqual({
      name: url,
      result: true,
      comment: `${url} cloned to ${target}`,
      changes: { new: `${url} => ${target}` },
    });
    expect(await st('cloned', { name: url, target, branch: 'main' })).toEqual({
      name: url,
      result: true,
      comment: `Repository already exists at ${target} and is checked out to branch 'main'`,
      changes: {},
    });
  });

  it('sets a value and a multivar', async () => {
    const repo = path.join(dir, 'nb');
    expect(await st('config_set', { name: 'user.email', value: 'me@example.com', repo }, true)).toEqual({
      name: 'user.email',
      changes: { old: null, new: ['me@example.com'] },
      result: null,
      comment: "'user.email' would be added as 'me@example.com'",
    });
    expect(await st('config_set', { name: 'user.email', value: 'me@example.com', repo })).toEqual({
      name: 'user.email',
      changes: { 'user.email': { old: null, new: ['me@example.com'] } },
      result: true,
      comment: "'user.email' was added as 'me@example.com'",
    });
    expect(await st('config_set', { name: 'foo.bar', multivar: ['a', 'b', 3], repo })).toMatchObject({
      result: true,
      comment: "'foo.bar' was added as ['a', 'b', '3']",
    });
    expect((await st('config_set', { name: 'foo.bar', multivar: ['a', 'b', 3], repo })).comment).toBe(
      "'foo.bar' is already set to ['a', 'b', '3']",
    );
  });
});
