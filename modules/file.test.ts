import { lstat, mkdir, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { unifiedDiff } from './_file-diff.js';
import file from './file.js';

// Expected values are what Salt 3006.18's salt-call --local file.<fun> returned for the same
// calls on this machine.

let dir: string;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const call = async (fun: string, ...arg: unknown[]) =>
  (await invoke(file, fun, arg, fakeCtx({ opts: { cachedir: join(dir, 'cache') } }))).value;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-filemod-'));
  await writeFile(join(dir, 'f'), 'a\nb\nc\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('file module: facts', () => {
  it('exists, stats, hashes, owners and modes', async () => {
    const f = join(dir, 'f');
    expect(await call('file_exists', f)).toBe(true);
    expect(await call('file_exists', join(dir, 'nope'))).toBe(false);
    expect(await call('directory_exists', dir)).toBe(true);
    const s = (await call('stats', f, kw({ hash_type: 'md5' }))) as Record<string, unknown>;
    expect(s).toMatchObject({
      uid: 0,
      gid: 0,
      user: 'root',
      group: 'root',
      size: 6,
      mode: '0644',
      type: 'file',
      target: f,
      sum: '40c53c58fdafacc83cfff6ee3d2f6d69',
    });
    await expect(call('stats', join(dir, 'nope'))).rejects.toThrow(`Path not found: ${join(dir, 'nope')}`);
    expect(await call('get_hash', f)).toBe(
      '880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2',
    );
    expect(await call('get_sum', join(dir, 'nope'))).toBe('File not found');
    expect(
      await call('check_hash', f, 'sha256:880553fca8fcea94e325ee2cfb48e5a985cc797f39a14cc6d3cedecfeb2ae4d2'),
    ).toBe(true);
    expect(await call('check_hash', f, '40c53c58fdafacc83cfff6ee3d2f6d69')).toBe(true);
    expect(await call('get_user', f)).toBe('root');
    expect(await call('get_gid', f)).toBe(0);
    expect(await call('set_mode', f, 600)).toBe('0600');
    expect(await call('get_mode', f)).toBe('0600');
    expect(await call('chown', f, 'root', 'root')).toBe(null);
    expect(await call('chown', f, 'tsalt-t-nouser', 'root')).toBe('User does not exist\n');
    expect(await call('chown', join(dir, 'nope'), 'root', 'root')).toBe('File not found');
    expect(await call('user_to_uid', 'tsalt-t-nouser')).toBe('');
    expect(await call('uid_to_user', 54321)).toBe(54321);
  });
});

describe('file module: writing', () => {
  it('write, append, prepend, read, touch, mkdir, makedirs, remove', async () => {
    const w = join(dir, 'w');
    expect(await call('write', w, 'line1', 'line2')).toBe(`Wrote 2 lines to "${w}"`);
    expect(await call('append', w, 'x', 'y')).toBe(`Wrote 2 lines to "${w}"`);
    expect(await call('prepend', w, 'p')).toBe(`Prepended 1 lines to "${w}"`);
    expect(await call('read', w)).toBe('p\nline1\nline2\nx\ny\n');
    expect(await call('touch', join(dir, 't'))).toBe(true);
    expect(await call('mkdir', join(dir, 'd1', 'd2'))).toBe(true);
    expect(await call('get_mode', join(dir, 'd1', 'd2'))).toBe('0755');
    expect(await call('makedirs', join(dir, 'm1', 'm2/'))).toBe(null);
    expect(await call('makedirs', join(dir, 'm1', 'm2/'))).toBe(
      `Directory '${join(dir, 'm1', 'm2')}' already exists`,
    );
    expect(await call('makedirs', join(dir, 'f', 'x'))).toBe(
      `The path '${join(dir, 'f')}' already exists and is not a directory`,
    );
    expect(await call('remove', join(dir, 'm1'))).toBe(true);
    expect(await call('remove', join(dir, 'nope'))).toBe(false);
  });

  it('rename, copy, move, symlink, readlink, readdir', async () => {
    const f = join(dir, 'f');
    expect(await call('copy', f, join(dir, 'c'))).toBe(true);
    expect(await call('rename', join(dir, 'c'), join(dir, 'c2'))).toBe(true);
    expect(await call('move', join(dir, 'c2'), join(dir, 'c3'))).toEqual({
      result: true,
      comment: `'${join(dir, 'c2')}' moved to '${join(dir, 'c3')}'`,
    });
    const l = join(dir, 'l');
    expect(await call('symlink', f, l)).toBe(true);
    expect(await call('symlink', f, l)).toBe(true);
    await expect(call('symlink', join(dir, 'c3'), l)).rejects.toThrow(`Found existing symlink: ${l}`);
    expect(await call('is_link', l)).toBe(true);
    expect(await call('readlink', l)).toBe(f);
    expect((await lstat(l)).isSymbolicLink()).toBe(true);
    await mkdir(join(dir, 'sub'));
    expect(await call('readdir', join(dir, 'sub'))).toEqual(['.', '..']);
    await expect(call('copy', join(dir, 'sub'), join(dir, 'sub2'))).rejects.toThrow(
      'Cannot copy overwriting a directory without recurse flag set to true!',
    );
  });
});

describe('file module: text edits', () => {
  it('search, contains, replace, comment_line, blockreplace, psed', async () => {
    const f = join(dir, 'f');
    expect(await call('search', f, '^b')).toBe(true);
    expect(await call('search', f, '^z')).toBe(false);
    expect(await call('contains', f, 'b')).toBe(true);
    expect(await call('replace', f, 'b', 'B')).toBe('--- \n+++ \n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
    expect(await call('replace', f, 'B', 'b', kw({ show_changes: false }))).toBe(true);
    expect(await call('replace', f, 'nope', 'x')).toBe('');
    expect(await call('replace', f, '^(a)$', '\\1\\1')).toBe(
      '--- \n+++ \n@@ -1,3 +1,3 @@\n-a\n+aa\n b\n c\n',
    );
    expect(await call('comment_line', f, '^c')).toBe('--- \n+++ \n@@ -1 +1 @@\n-c\n+#c\n');
    expect(await call('comment_line', f, '^c', kw({ cmnt: false }))).toBe(
      '--- \n+++ \n@@ -1 +1 @@\n-#c\n+c\n',
    );
    expect(await call('comment_line', f, '^zz')).toBe(false);
    const opts = { marker_start: '#S', marker_end: '#E', content: 'hi', append_if_not_found: true };
    expect(await call('blockreplace', f, kw(opts))).toBe(
      '--- \n+++ \n@@ -1,3 +1,5 @@\n aa\n b\n c\n+#S\n+hi#E\n',
    );
    expect(await call('blockreplace', f, kw(opts))).toBe('');
    expect(
      await call(
        'blockreplace',
        f,
        kw({ marker_start: '#S', marker_end: '#E', content: 'ho', append_newline: true }),
      ),
    ).toBe('--- \n+++ \n@@ -2,4 +2,5 @@\n b\n c\n #S\n-hi#E\n+ho\n+#E\n');
    await expect(call('blockreplace', f, kw({ marker_start: '#X', marker_end: '#Y' }))).rejects.toThrow(
      'Cannot edit marked block. Markers were not found in file.',
    );
    expect(await call('psed', f, 'a', 'A')).toBe(null);
    expect(await readFile(f, 'utf8')).toBe('AA\nb\nc\n#S\nho\n#E\n');
    expect((await stat(`${f}.bak`)).isFile()).toBe(true);
  });

  it('find: type, name, print, maxdepth, bad type', async () => {
    await mkdir(join(dir, 'd1', 'd2'), { recursive: true });
    await symlink(join(dir, 'f'), join(dir, 'l'));
    expect(await call('find', dir, kw({ type: 'f' }))).toEqual([join(dir, 'f'), join(dir, 'l')]);
    expect(await call('find', dir, kw({ type: 'd' }))).toEqual([dir, join(dir, 'd1'), join(dir, 'd1', 'd2')]);
    expect(await call('find', dir, kw({ name: 'f*', print: 'path,size,mode' }))).toEqual([
      [join(dir, 'f'), 6, 420],
    ]);
    expect(await call('find', dir, kw({ type: 'q' }))).toBe('error: invalid file type "q"');
  });
});

describe("unified diff (Python difflib's hunks)", () => {
  it('groups changes with three lines of context and splits far-apart ones', () => {
    const a = Array.from({ length: 20 }, (_, i) => `${i}\n`);
    const b = [...a];
    b[1] = 'one\n';
    b[15] = 'fifteen\n';
    expect(unifiedDiff(a, b)).toBe(
      '--- \n+++ \n@@ -1,5 +1,5 @@\n 0\n-1\n+one\n 2\n 3\n 4\n@@ -13,7 +13,7 @@\n 12\n 13\n 14\n-15\n+fifteen\n 16\n 17\n 18\n',
    );
    expect(unifiedDiff(['x\n'], ['x\n'])).toBe('');
    expect(unifiedDiff([], ['new\n'])).toBe('--- \n+++ \n@@ -0,0 +1 @@\n+new\n');
  });
});
