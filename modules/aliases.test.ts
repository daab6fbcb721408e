import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import aliases from './aliases.js';

// A throwaway aliases file through `aliases.file`; expectations: salt-call --local (Salt 3006.18).
const dir = mkdtempSync(join(tmpdir(), 'tsalt-t-aliases-'));
const file = join(dir, 'aliases');
const ctx = fakeCtx({ opts: { 'aliases.file': file } });
const call = async (fun: string, arg: unknown[] = []) => (await invoke(aliases, fun, arg, ctx)).value;
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() =>
  writeFileSync(
    file,
    '# mail aliases\npostmaster: root\nroot: admin, ops  # the admins\n\nweird line\n  # indented comment\nlist: a,b\n',
    { mode: 0o640 },
  ),
);

describe('aliases', () => {
  it('lists and queries aliases the way Salt reads the lines', async () => {
    expect(await call('list_aliases')).toEqual({
      postmaster: 'root',
      root: 'admin, ops',
      '\n': '',
      'weird line\n': '',
      ' ': '',
      list: 'a,b',
    });
    expect(await call('get_target', ['root'])).toBe('admin, ops');
    expect(await call('get_target', ['nope'])).toBe('');
    expect(await call('has_target', ['root', ['admin', 'ops']])).toBe(true);
    expect(await call('has_target', ['root', 'admin'])).toBe(false);
    await expect(call('has_target', ['root', ''])).rejects.toThrow('target can not be an empty string');
  });

  it('sets and removes aliases, keeping comments, mode and owner', async () => {
    expect(await call('set_target', ['root', 'bob'])).toBe(true);
    expect(await call('set_target', ['new', ['x', 'y']])).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(
      '# mail aliases\npostmaster: root\nroot: bob  # the admins\n\n\n # indented comment\nlist: a,b\nnew: x, y\n',
    );
    expect(statSync(file).mode & 0o777).toBe(0o640);
    expect(await call('rm_alias', ['root'])).toBe(true);
    expect(await call('rm_alias', ['nope'])).toBe(true);
    expect(await call('get_target', ['root'])).toBe('');
    await expect(call('set_target', ['', 'x'])).rejects.toThrow('alias can not be an empty string');
  });
});
