import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { backupMinion } from './_file-manage.js';
import cmd from './cmd.js';
import file from './file.js';

// Expected values are what Salt 3006.18's salt-call --local file.<fun> returned for the same
// calls on this machine (/tmp/fs-cmp/cmp.sh: 35 of 37 identical).

let dir: string;
const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });
const ctx = (test = false) => {
  const c = fakeCtx({
    opts: { cachedir: join(dir, 'cache'), test },
    grains: { kernel: 'Linux' },
    call: async (fun, args = [], kwargs = {}) =>
      (await invoke(cmd, fun.slice(4), [...args, { __kwarg__: true, ...kwargs }], c)).value,
  });
  return c;
};
const call = async (fun: string, ...arg: unknown[]) => (await invoke(file, fun, arg, ctx())).value;
const F = () => join(dir, 'f');
const text = () => readFile(F(), 'utf8');

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-filefns-'));
  await writeFile(F(), 'a\n  b\nc\n');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('file.line', () => {
  it('ensures after a line with its indent, once', async () => {
    expect(await call('line', F(), kw({ content: 'x', after: 'b', mode: 'ensure' }))).toBe(
      '--- \n+++ \n@@ -1,3 +1,4 @@\n a\n   b\n+  x\n c\n',
    );
    expect(await text()).toBe('a\n  b\n  x\nc\n');
    // Salt compares the next line unstripped of its indent: an indented line goes in again
    expect(await call('line', F(), kw({ content: 'x', after: 'b', mode: 'ensure' }))).toContain('+  x');
    expect(await call('line', F(), kw({ content: 'y', after: '^a', mode: 'ensure' }))).toContain('+y');
    expect(await call('line', F(), kw({ content: 'y', after: '^a', mode: 'ensure' }))).toBe(false);
  });

  it('inserts at the end as Salt does (a blank line, no newline at the end)', async () => {
    expect(await call('line', F(), kw({ content: 'x', location: 'end', mode: 'insert' }))).toBe(
      '--- \n+++ \n@@ -1,3 +1,5 @@\n a\n   b\n c\n+\n+x',
    );
    expect(await text()).toBe('a\n  b\nc\n\nx');
  });

  it('inserts at the start, before and between lines; replaces and deletes the first match', async () => {
    await call('line', F(), kw({ content: 'x', location: 'start', mode: 'insert' }));
    expect(await text()).toBe('x\na\n  b\nc\n');
    await call('line', F(), kw({ content: 'y', before: 'c', mode: 'insert' }));
    expect(await text()).toBe('x\na\n  b\ny\nc\n');
    expect(
      await call('line', F(), kw({ content: 'zz', match: 'b', mode: 'replace', show_changes: false })),
    ).toBe(true);
    expect(await text()).toBe('x\na\n  zz\ny\nc\n');
    await call('line', F(), kw({ match: 'zz', mode: 'delete' }));
    expect(await text()).toBe('x\na\ny\nc\n');
    expect(await call('line', F(), kw({ content: 'q', match: 'nothing', mode: 'replace' }))).toBe(false);
  });

  it('predicts without writing under test, and refuses what Salt refuses', async () => {
    const c = ctx(true);
    expect(
      (await invoke(file, 'line', [F(), kw({ content: 'x', after: 'a', mode: 'ensure' })], c)).value,
    ).toContain('+x');
    expect(await text()).toBe('a\n  b\nc\n');
    await expect(call('line', F(), kw({ content: 'zz', mode: 'ensure' }))).rejects.toThrow(
      'Wrong conditions? Unable to ensure line without knowing where to put it before and/or after.',
    );
    await expect(call('line', F(), kw({ content: 'zz', mode: 'bogus' }))).rejects.toThrow(
      'Unknown mode: "bogus"',
    );
    await expect(call('line', F(), kw({ content: 'zz', after: '.', mode: 'ensure' }))).rejects.toThrow(
      'Found more than expected occurrences in "after" expression',
    );
    await expect(call('line', join(dir, 'nope'), kw({ content: 'x', mode: 'ensure' }))).rejects.toThrow(
      `File "${join(dir, 'nope')}" does not exists or is not a file.`,
    );
    expect(await call('line', join(dir, 'nope'), kw({ content: 'x', mode: 'ensure', quiet: true }))).toBe(
      false,
    );
  });
});

describe('file module: sed, patch, contains_regex and the rest', () => {
  it('edits with sed and patch through the programs', async () => {
    const r = (await call('sed', F(), 'b', 'BB')) as Record<string, unknown>;
    expect(r).toMatchObject({ retcode: 0, stdout: '', stderr: '' });
    expect(await text()).toBe('a\n  BB\nc\n');
    expect(await readFile(`${F()}.bak`, 'utf8')).toBe('a\n  b\nc\n');
    const p = join(dir, 'p.diff');
    await writeFile(p, '--- f\n+++ f\n@@ -1,3 +1,3 @@\n a\n-  BB\n+  B\n c\n');
    const out = (await call('patch', F(), p)) as Record<string, unknown>;
    expect(out).toMatchObject({ retcode: 0, stdout: `patching file ${F()}` });
    expect(await text()).toBe('a\n  B\nc\n');
  });

  it('answers contains_regex, contains_glob, access, diskusage and the file type checks', async () => {
    await writeFile(F(), 'a\n#c\n');
    expect(await call('contains_regex', F(), '^c')).toBe(false);
    expect(await call('contains_regex', F(), '^c', kw({ lchar: '#' }))).toBe(true);
    expect(await call('contains_glob', F(), '*#c*')).toBe(true);
    expect(await call('access', F(), 'r')).toBe(true);
    await expect(call('access', F(), 'q')).rejects.toThrow('Invalid mode specified.');
    expect(await call('diskusage', dir)).toBe(5);
    expect(await call('is_chrdev', '/dev/null')).toBe(true);
    expect(await call('is_blkdev', F())).toBe(false);
    execFileSync('mkfifo', [join(dir, 'p')]);
    expect(await call('is_fifo', join(dir, 'p'))).toBe(true);
    expect(await call('link', F(), join(dir, 'g'))).toBe(true);
    expect(await call('is_hardlink', join(dir, 'g'))).toBe(true);
    expect(await call('truncate', F(), 2)).toBe(null);
    expect(await text()).toBe('a\n');
  });

  it('makes folders with their mode, and lists, restores and deletes minion backups', async () => {
    expect(await call('makedirs_perms', join(dir, 'x/y'), kw({ mode: '0700' }))).toBe(null);
    expect((await stat(join(dir, 'x/y'))).mode & 0o777).toBe(0o700);
    expect(await call('list_backups', F())).toEqual({});
    const bk = await backupMinion(F(), join(dir, 'cache'));
    await writeFile(F(), 'changed\n');
    const list = (await call('list_backups', F())) as Record<string, { Location: string; Size: number }>;
    expect(Object.keys(list)).toEqual(['0']);
    expect(list[0]).toMatchObject({ Location: bk, Size: 8 });
    expect(await call('restore_backup', F(), 'x')).toEqual({
      result: false,
      comment: "Invalid backup_id 'x'",
    });
    expect(await call('restore_backup', F(), '3')).toEqual({
      result: false,
      comment: `backup_id '3' does not exist for ${F()}`,
    });
    expect(await call('restore_backup', F(), '0')).toEqual({
      result: true,
      comment: `Successfully restored ${bk} to ${F()}`,
    });
    expect(await text()).toBe('a\n  b\nc\n');
    expect(await call('delete_backup', F(), '1')).toMatchObject({ result: true });
  });
});
