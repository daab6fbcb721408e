import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import aliasesMod from '../modules/aliases.js';
import { moduleCtx, runState } from './_test-ctx.js';
import alias from './alias.js';

// A temp aliases file through the `aliases.file` option; every return and file content below
// is what Salt 3006.18 gave for the same steps (15 of 15 identical, state.single by salt-call).
let dir: string;
let file: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(alias, fn, kw, { ctx, test });
const ret = (name: string, result: boolean | null, comment: string, changed = false) => ({
  name,
  changes: changed ? { alias: name } : {},
  result,
  comment,
});

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'tsalt-t-aliases-'));
  file = path.join(dir, 'aliases');
  await writeFile(
    file,
    '# comment\npostmaster: root\n\nroot: old # note\nweird line\nspaced : x\ntrail: t1  \n',
  );
  ctx = moduleCtx([aliasesMod], { opts: { 'aliases.file': file } });
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('alias states over an aliases file', () => {
  it('present: a target, a list of targets, already present, test=True', async () => {
    expect(await st('present', { name: 'root', target: 'admin' }, true)).toEqual(
      ret('root', null, 'Alias root -> admin is set to be added'),
    );
    expect(await st('present', { name: 'root', target: 'admin' })).toEqual(
      ret('root', true, 'Set email alias root -> admin', true),
    );
    expect(await st('present', { name: 'root', target: 'admin' })).toEqual(
      ret('root', true, 'Alias root already present'),
    );
    const two = ['a@x.org', 'b@y.org'];
    expect(await st('present', { name: 'lists', target: two }, true)).toEqual(
      ret('lists', null, "Alias lists -> ['a@x.org', 'b@y.org'] is set to be added"),
    );
    expect(await st('present', { name: 'lists', target: two })).toEqual(
      ret('lists', true, "Set email alias lists -> ['a@x.org', 'b@y.org']", true),
    );
    expect(await st('present', { name: 'lists', target: two })).toEqual(
      ret('lists', true, 'Alias lists already present'),
    );
    // "spaced : x" names the alias "spaced " for Salt's pattern, so "spaced" is a new one
    expect(await st('present', { name: 'spaced', target: 'y' })).toEqual(
      ret('spaced', true, 'Set email alias spaced -> y', true),
    );
    // a line without a colon does not survive a rewrite, as in Salt
    expect(await readFile(file, 'utf8')).toBe(
      '# comment\npostmaster: root\n\nroot: admin # note\n\nspaced : x\ntrail: t1  \nlists: a@x.org, b@y.org\nspaced: y\n',
    );
  });

  it('absent: test=True, removed, already absent', async () => {
    expect(await st('absent', { name: 'root' }, true)).toEqual(
      ret('root', null, 'Alias root is set to be removed'),
    );
    expect(await st('absent', { name: 'root' })).toEqual(ret('root', true, 'Removed alias root', true));
    expect(await st('absent', { name: 'root' })).toEqual(ret('root', true, 'Alias root already absent'));
    expect(await st('absent', { name: 'nosuch' }, true)).toEqual(
      ret('nosuch', true, 'Alias nosuch already absent'),
    );
    expect(await readFile(file, 'utf8')).toBe(
      '# comment\npostmaster: root\n\n\nspaced : x\ntrail: t1  \nlists: a@x.org, b@y.org\nspaced: y\n',
    );
  });
});
