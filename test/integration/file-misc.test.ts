// file.grep, sed_contains, normpath, path_exists_glob, lsattr and chattr through a real
// masterless salt-call on throwaway files (Salt 3006.18 answers the same, the run_all pid aside)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pyNormpath } from '../../modules/_file-fns-misc.js';
import { localCaller } from '../support/local-call.js';

/** Whether the temp folder's file system keeps ext2-style attributes (ext4: yes; tmpfs, overlay: no). */
function attributesWork(file: string): boolean {
  try {
    execFileSync('lsattr', [file], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('file.grep and the small file functions', () => {
  const root = mkdtempSync(join(tmpdir(), 'tsalt-file-misc-'));
  const call = localCaller(root, 'f1');
  const f = join(root, 'files');

  beforeAll(() => {
    mkdirSync(join(f, 'sub'), { recursive: true });
    mkdirSync(join(root, 'srv'));
    writeFileSync(join(f, 'a.txt'), 'Hello World\nroot line\nfoo/bar\n');
    writeFileSync(join(f, 'b.txt'), 'hello again\n');
    writeFileSync(join(f, 'sub/c.conf'), 'x\n');
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("greps a glob's files with options passed one by one", async () => {
    const r = (await call('file.grep', join(f, '*.txt'), 'hello', '--', '-i')).local as Record<
      string,
      unknown
    >;
    expect(r).toMatchObject({ retcode: 0, stderr: '' });
    expect(String(r.stdout).split('\n').sort()).toEqual([`${f}/a.txt:Hello World`, `${f}/b.txt:hello again`]);
    expect((await call('file.grep', join(f, 'a.txt'), 'o', '--', '-n', '-c')).local).toMatchObject({
      stdout: '3',
    });
    const bad = await call('file.grep', join(f, 'a.txt'), 'o', '--', '-n -c');
    expect(bad.code).toBe(1);
    expect(bad.output).toContain(
      'Passing multiple command line arguments in a single string is not supported',
    );
  });

  it('answers sed_contains, path_exists_glob and normpath as Salt does', async () => {
    expect((await call('file.sed_contains', join(f, 'a.txt'), 'foo/bar')).local).toBe(true);
    expect((await call('file.sed_contains', join(f, 'a.txt'), 'line', 'limit=World')).local).toBe(false);
    expect((await call('file.path_exists_glob', join(f, 's?b/*.conf'))).local).toBe(true);
    expect((await call('file.path_exists_glob', join(f, '*.nope'))).local).toBe(false);
    expect((await call('file.normpath', '//x//y/./z/')).local).toBe('//x/y/z');
    expect([pyNormpath('/../a'), pyNormpath('../../a/../b'), pyNormpath('///a'), pyNormpath('')]).toEqual([
      '/a',
      '../../b',
      '/a',
      '.',
    ]);
  });

  it('sets and reads a file attribute with chattr and lsattr', async () => {
    const file = join(f, 'a.txt');
    if (!attributesWork(file)) return; // the temp folder's file system has no such attributes
    expect((await call('file.chattr', file, 'operator=add', 'attributes=A')).local).toBe(true);
    expect((await call('file.lsattr', file)).local).toEqual({ [file]: ['A', 'e'] });
    expect((await call('file.chattr', file, 'operator=remove', 'attributes=A')).local).toBe(true);
    expect((await call('file.lsattr', file)).local).toEqual({ [file]: ['e'] });
    const missing = await call('file.chattr', file, 'attributes=A');
    expect(missing.output).toContain("Need an operator: 'add' or 'remove' to modify attributes.");
  });
});
