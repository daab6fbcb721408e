import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCtx } from './_fake-ctx.js';
import { aptDir, delRepo, getRepo, listRepos, modRepo, parseEntry } from './_pkg-apt-repos.js';

let dir: string;
const original = aptDir.root;
const noRefresh = async (): Promise<void> => {};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-apt-'));
  mkdirSync(path.join(dir, 'sources.list.d'));
  aptDir.root = dir;
});
afterEach(() => {
  aptDir.root = original;
  rmSync(dir, { recursive: true, force: true });
});

describe('apt one-line sources', () => {
  it('parses options, comments and disabled lines as Salt does', () => {
    const e = parseEntry(
      '# deb [arch=amd64,i386 signed-by=/k.gpg] http://x.invalid/debian bookworm main contrib #note\n',
    );
    expect(e).toMatchObject({
      invalid: false,
      disabled: true,
      comment: 'note',
      type: 'deb',
      uri: 'http://x.invalid/debian',
      dist: 'bookworm',
      comps: ['main', 'contrib'],
      architectures: ['amd64', 'i386'],
      signedby: '/k.gpg',
    });
    expect(parseEntry('not a repo').invalid).toBe(true);
    expect(parseEntry('deb http://x.invalid').invalid).toBe(true);
  });

  it('lists, finds, adds and deletes repos', async () => {
    writeFileSync(path.join(dir, 'sources.list'), '# a comment\ndeb http://x.invalid/debian bookworm main\n');
    const repos = listRepos();
    expect(Object.keys(repos)).toEqual(['http://x.invalid/debian']);
    expect(repos['http://x.invalid/debian']?.[0]).toEqual({
      file: path.join(dir, 'sources.list'),
      comps: ['main'],
      disabled: false,
      dist: 'bookworm',
      type: 'deb',
      uri: 'http://x.invalid/debian',
      line: 'deb http://x.invalid/debian bookworm main',
      architectures: [],
      signedby: '',
    });
    expect(getRepo('deb http://x.invalid/debian/ bookworm main')).toMatchObject({ dist: 'bookworm' });
    expect(getRepo('deb http://y.invalid/debian bookworm main')).toEqual({});

    const file = path.join(dir, 'sources.list.d', 'tsalt-t.list');
    const line = 'deb [trusted=yes] file:/srv/tsalt-t ./';
    const added = await modRepo(fakeCtx(), line, { file, refresh: false }, noRefresh);
    expect(added[line]).toEqual({
      architectures: [],
      comps: [],
      disabled: false,
      file,
      type: 'deb',
      uri: 'file:/srv/tsalt-t',
      line: `${line}\n`,
      signedby: '',
    });
    expect(readFileSync(file, 'utf8')).toBe('deb [trusted=yes] file:/srv/tsalt-t ./ \n');
    const msg = await delRepo(fakeCtx(), line, noRefresh);
    expect(msg).toBe(`File ${file} containing repo '${line}' has been removed.`);
    await expect(delRepo(fakeCtx(), line, noRefresh)).rejects.toThrow(
      `Repo ${line} doesn't exist in the sources.list(s)`,
    );
  });
});
