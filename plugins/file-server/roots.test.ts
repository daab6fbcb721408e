import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FileServerConfig, fileEnvs, fileHash, fileList, parseFilePath, serveFile } from './roots.js';

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

const config: FileServerConfig = {
  file_roots: { base: [a, b], dev: [join(top, 'dev')] },
  file_buffer_size: 4,
  hash_type: 'sha256',
};

afterAll(() => rmSync(top, { recursive: true, force: true }));

describe('file server (roots backend)', () => {
  it('lists the saltenvs', () => {
    expect(fileEnvs(config)).toEqual(['base', 'dev']);
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
