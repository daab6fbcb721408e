import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { localFileServer } from './local-channel.js';
import { parseFilePath } from './paths.js';

const top = mkdtempSync(join(tmpdir(), 'tsalt-fs-'));
const a = join(top, 'a');
const b = join(top, 'b');
const outside = join(top, 'outside');
for (const d of [join(a, '_modules', 'sub'), join(b, '_modules'), outside, join(top, 'dev')]) {
  mkdirSync(d, { recursive: true });
}
writeFileSync(join(a, '_modules', 'hello.mjs'), 'from a');
writeFileSync(join(a, '_modules', 'sub', 'deep.js'), 'deep');
writeFileSync(join(a, 'top.sls'), 'top');
writeFileSync(join(b, '_modules', 'hello.mjs'), 'from b');
writeFileSync(join(b, '_modules', 'other.js'), 'other');
writeFileSync(join(outside, 'secret'), 'secret');
writeFileSync(join(top, 'dev', 'd.txt'), 'dev');
symlinkSync(join(outside, 'secret'), join(a, 'leak'));
symlinkSync(outside, join(a, 'leakdir'));
symlinkSync(join(a, 'top.sls'), join(a, 'inner-link'));
symlinkSync(a, join(a, '_modules', 'loop'));

mkdirSync(join(a, 'empty', 'inner'), { recursive: true });
writeFileSync(join(a, 'skip.bak'), 'ignored');
writeFileSync(join(a, 'skip-me.txt'), 'ignored');
const config = {
  file_roots: { base: [a, b], dev: [join(top, 'dev')] },
  file_buffer_size: 4,
  hash_type: 'sha256',
  cachedir: join(top, 'cache'),
  extra: { file_ignore_glob: ['*.bak'], file_ignore_regex: ['skip-me'] },
};
const fs = localFileServer(config);
const fileList = (_c: unknown, load: Record<string, unknown>) => fs.fileList(load);
const fileHash = (_c: unknown, load: Record<string, unknown>) => fs.fileHash(load);
const serveFile = (_c: unknown, load: Record<string, unknown>) => fs.serveFile(load);

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('file server (roots backend)', () => {
  it('lists the saltenvs', async () => {
    expect(await fs.fileEnvs()).toEqual(['base', 'dev']);
  });

  it('lists the files of every root, de-duplicated, sorted, without links that leave the root', async () => {
    expect(await fileList(config, { saltenv: 'base' })).toEqual([
      '_modules/hello.mjs',
      '_modules/other.js',
      '_modules/sub/deep.js',
      'inner-link',
      'top.sls',
    ]);
    expect(await fileList(config, { saltenv: 'base', prefix: '/_modules/' })).toEqual([
      '_modules/hello.mjs',
      '_modules/other.js',
      '_modules/sub/deep.js',
    ]);
    expect(await fileList(config, { saltenv: 'nope' })).toEqual([]);
    expect(await fileList(config, {})).toEqual([]);
  });

  it('hashes the file of the first root that has it', async () => {
    const want = createHash('sha256').update('from a').digest('hex');
    expect(await fileHash(config, { path: 'salt://_modules/hello.mjs', saltenv: 'base' })).toEqual({
      hash_type: 'sha256',
      hsum: want,
    });
    expect(await fileHash(config, { path: '_modules/other.js', saltenv: 'base' })).toMatchObject({
      hsum: createHash('sha256').update('other').digest('hex'),
    });
    expect(await fileHash(config, { path: 'salt://d.txt?saltenv=dev', saltenv: 'base' })).toMatchObject({
      hash_type: 'sha256',
    });
    expect(await fileHash(config, { path: 'missing', saltenv: 'base' })).toBe('');
    expect(await fileHash(config, { saltenv: 'base' })).toBe('');
  });

  it('serves a file in file_buffer_size chunks', async () => {
    const load = { path: 'salt://_modules/other.js', saltenv: 'base' };
    const first = await serveFile(config, { ...load, loc: 0 });
    expect(first.dest).toBe('_modules/other.js');
    expect(Buffer.from(first.data).toString()).toBe('othe');
    const second = await serveFile(config, { ...load, loc: 4 });
    expect(Buffer.from(second.data).toString()).toBe('r');
    const end = await serveFile(config, { ...load, loc: 5 });
    expect(end.data).toHaveLength(0);
    expect(await serveFile(config, { path: 'salt://top.sls', saltenv: 'base' })).toEqual({
      data: '',
      dest: '',
    });
  });

  it('refuses traversal, absolute paths and links that leave the root', async () => {
    const refused = [
      '../outside/secret',
      'salt://../outside/secret',
      '_modules/../../outside/secret',
      join(outside, 'secret'),
      'leak',
      'leakdir/secret',
      'salt://leak',
      '_modules/loop/leak',
    ];
    for (const path of refused) {
      expect(await serveFile(config, { path, saltenv: 'base', loc: 0 }), path).toEqual({
        data: '',
        dest: '',
      });
      expect(await fileHash(config, { path, saltenv: 'base' }), path).toBe('');
    }
    const inner = await serveFile(config, { path: 'inner-link', saltenv: 'base', loc: 0 });
    expect(Buffer.from(inner.data).toString()).toBe('top');
  });

  it('parses salt:// URLs as Salt does', () => {
    expect(parseFilePath('salt://x/y.sls?saltenv=dev', 'base')).toEqual({ path: 'x/y.sls', saltenv: 'dev' });
    expect(parseFilePath('salt://|x?y', 'base')).toEqual({ path: 'x?y', saltenv: 'base' });
    expect(parseFilePath('plain', 'base')).toEqual({ path: 'plain', saltenv: 'base' });
  });
});

describe('file server listings and options', () => {
  it('lists directories, empty directories and symlinks as Salt does', async () => {
    expect(await fs.dirList({ saltenv: 'base' })).toEqual([
      '_modules',
      '_modules/sub',
      'empty',
      'empty/inner',
    ]);
    expect(await fs.fileListEmptyDirs({ saltenv: 'base' })).toEqual(['empty/inner']);
    expect(await fs.symlinkList({ saltenv: 'base', prefix: '' })).toEqual({
      '_modules/loop': a,
      'inner-link': join(a, 'top.sls'),
    });
    expect(await fs.symlinkList({})).toEqual({});
  });

  it('hides ignored files from listings and from serving', async () => {
    const all = await fs.fileList({ saltenv: 'base' });
    expect(all).not.toContain('skip.bak');
    expect(all).not.toContain('skip-me.txt');
    expect(await fs.fileHash({ path: 'skip.bak', saltenv: 'base' })).toBe('');
  });

  it('answers _file_hash_and_stat and _file_find with the stat list', async () => {
    const [hash, st] = await fs.fileHashAndStat({ path: 'top.sls', saltenv: 'base' });
    expect(hash).toMatchObject({ hash_type: 'sha256' });
    expect(st).toHaveLength(10);
    expect(st?.[6]).toBe(3);
    expect(await fs.fileHashAndStat({ path: '../x', saltenv: 'base' })).toEqual(['', null]);
    expect(await fs.fileFind({ path: 'top.sls', saltenv: 'base' })).toMatchObject({
      path: join(a, 'top.sls'),
      rel: 'top.sls',
      back: 'roots',
    });
    expect(await fs.fileFind({ path: '' })).toEqual({ path: '', rel: '' });
  });

  it('gzips a chunk when asked', async () => {
    const chunk = await fs.serveFile({ path: 'top.sls', saltenv: 'base', loc: 0, gzip: 5 });
    expect(chunk.gzip).toBe(5);
    expect(gunzipSync(chunk.data as Buffer).toString()).toBe('top');
  });

  it('follows links out of a root only with fileserver_followsymlinks', async () => {
    const open = localFileServer({ ...config, extra: { fileserver_followsymlinks: true } });
    expect(
      Buffer.from((await open.serveFile({ path: 'leak', saltenv: 'base', loc: 0 })).data).toString(),
    ).toBe('secr');
    // `..` stays refused whatever the option
    expect(await open.fileHash({ path: '../outside/secret', saltenv: 'base' })).toBe('');
  });

  it('serves any saltenv from an __env__ root', async () => {
    const any = localFileServer({ ...config, file_roots: { __env__: [join(top, '__env__')] } });
    expect(await any.fileList({ saltenv: 'dev' })).toEqual(['d.txt']);
    expect(await any.fileEnvs()).toEqual([]);
  });
});
