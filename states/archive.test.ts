import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import archiveMod from '../modules/archive.js';
import cmdMod from '../modules/cmd.js';
import cpMod from '../modules/cp.js';
import fileMod from '../modules/file.js';
import { moduleCtx, runState } from './_test-ctx.js';
import archive from './archive.js';
import fileStates from './file.js';

// Real archives made by tar and zip in a temp dir, extracted by the state; expectations: Salt
// 3006.18's returns for the same archives (checked side by side with salt-call --local).
let dir: string;
let ctx: ReturnType<typeof moduleCtx>;
const st = (kw: Record<string, unknown>, test = false) =>
  runState(archive, 'extracted', kw, { ctx, test, states: [fileStates] });
const can = which('tar') !== null;
const canZip = which('zip') !== null && which('unzip') !== null;
const MEMBERS = ['top', 'top/a.txt', 'top/link', 'top/sub', 'top/sub/b.txt'];

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tsalt-t-archive-'));
  ctx = moduleCtx([archiveMod, cmdMod, cpMod, fileMod], {
    opts: { cachedir: path.join(dir, 'cache'), hash_type: 'sha256', file_client: 'local' },
  });
  const src = path.join(dir, 'src');
  mkdirSync(path.join(src, 'top', 'sub'), { recursive: true });
  writeFileSync(path.join(src, 'top', 'a.txt'), 'a\n');
  writeFileSync(path.join(src, 'top', 'sub', 'b.txt'), 'b\n');
  symlinkSync('a.txt', path.join(src, 'top', 'link'));
  writeFileSync(path.join(src, 'loose'), 'x\n');
  if (!can) return;
  execFileSync('tar', ['czf', path.join(dir, 'app.tar.gz'), 'top'], { cwd: src });
  execFileSync('tar', ['cJf', path.join(dir, 'app.tar.xz'), 'top'], { cwd: src });
  execFileSync('tar', ['czf', path.join(dir, 'bomb.tgz'), 'top', 'loose'], { cwd: src });
  if (canZip) execFileSync('zip', ['-qry', path.join(dir, 'app.zip'), 'top'], { cwd: src });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(!can)('archive.extracted', () => {
  it('predicts, extracts a tar.gz with its hash checked, then finds it present', async () => {
    const source = path.join(dir, 'app.tar.gz');
    const hash = createHash('sha256').update(readFileSync(source)).digest('hex');
    const name = path.join(dir, 'out', 'gz');
    const kw = { name, source, source_hash: `sha256=${hash}` };
    expect(await st(kw, true)).toEqual({
      name,
      result: null,
      changes: {},
      comment: `Archive ${source} would be extracted to ${name}/, due to absence of one or more files/dirs`,
    });
    const r = await st(kw);
    expect(r).toMatchObject({
      result: true,
      comment: `${source} extracted to ${name}/, due to absence of one or more files/dirs. Output was trimmed to False number of lines`,
    });
    expect(r.changes.directories_created).toEqual([`${name}/`]);
    expect([...(r.changes.extracted_files as string[])].sort()).toEqual(MEMBERS);
    expect(readFileSync(path.join(name, 'top', 'sub', 'b.txt'), 'utf8')).toBe('b\n');
    expect(await st(kw)).toEqual({
      name,
      result: true,
      changes: {},
      comment: 'All files in archive are already present',
    });
  });

  it('reads xz-compressed tars and trims the file list', async () => {
    const source = path.join(dir, 'app.tar.xz');
    const name = path.join(dir, 'out', 'xz');
    const r = await st({ name, source, trim_output: 2 });
    expect(r.result).toBe(true);
    expect(r.changes.extracted_files).toHaveLength(2);
    expect(r.comment).toBe(
      `${source} extracted to ${name}/, due to absence of one or more files/dirs. Output was trimmed to 2 number of lines`,
    );
  });

  it('refuses a tar-bomb unless enforce_toplevel is off', async () => {
    const source = path.join(dir, 'bomb.tgz');
    const name = path.join(dir, 'out', 'bomb');
    expect((await st({ name, source })).comment).toBe(
      `Archive does not have a single top-level directory. To allow this archive to be extracted, set 'enforce_toplevel' to False. To avoid a 'tar-bomb' it may also be advisable to set a top-level directory by adding it to the 'name' value (for example, setting 'name' to ${name}/some_dir instead of ${name}/).`,
    );
    expect((await st({ name, source, enforce_toplevel: false })).result).toBe(true);
  });

  it('answers if_missing, a bad hash, a relative name and a missing source as Salt does', async () => {
    const source = path.join(dir, 'app.tar.gz');
    expect(await st({ name: path.join(dir, 'out', 'm'), source, if_missing: dir })).toEqual({
      name: path.join(dir, 'out', 'm'),
      result: true,
      changes: {},
      comment: `Path ${dir} exists`,
    });
    const zeros = '0'.repeat(64);
    expect(
      (await st({ name: path.join(dir, 'out', 'bad'), source, source_hash: `sha256=${zeros}` })).comment,
    ).toBe(`${source} does not match the desired source_hash ${zeros}`);
    expect((await st({ name: 'rel/dir', source })).comment).toBe('rel/dir is not an absolute path');
    expect(
      (await st({ name: path.join(dir, 'out', 'n'), source: path.join(dir, 'nope.tar.gz') })).comment,
    ).toBe(`Source file '${path.join(dir, 'nope.tar.gz')}' does not exist`);
  });

  it.skipIf(!canZip)('extracts a zip, keeping its symlink', async () => {
    const source = path.join(dir, 'app.zip');
    const name = path.join(dir, 'out', 'zip');
    const r = await st({ name, source });
    expect(r.result).toBe(true);
    expect(r.changes.extracted_files).toEqual(['top/', 'top/link', 'top/sub/', 'top/sub/b.txt', 'top/a.txt']);
    expect((await st({ name, source })).comment).toBe('All files in archive are already present');
  });
});

describe.skipIf(!can)('archive.list', () => {
  it('lists verbosely with the top level', async () => {
    expect(await ctx.call('archive.list', [path.join(dir, 'app.tar.gz')], { verbose: true })).toEqual({
      dirs: ['top/', 'top/sub/'],
      files: ['top/a.txt', 'top/sub/b.txt'],
      links: ['top/link'],
      top_level_dirs: ['top/'],
      top_level_files: [],
      top_level_links: [],
    });
    expect(await ctx.call('archive.list', [path.join(dir, 'bomb.tgz')], { strip_components: 1 })).toEqual([
      'a.txt',
      'link',
      'sub/',
      'sub/b.txt',
    ]);
  });
});
