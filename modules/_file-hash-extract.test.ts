// Expected values are what Salt 3006.18's salt-call --local file.extract_hash / file.get_source_sum
// returned for the same hash files and arguments on this machine (/tmp/files18/harness.mjs).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeCtx } from './_fake-ctx.js';
import { extractHash, extractHashFrom, sourceSum } from './_file-hash-extract.js';

const SHA256 = '075d7614f8e40dee6a1b41203def4ac4b0b9848c0c169fcb08c1fcb559f33a40';
const MD5 = 'c23b79d8c16cdfdb8fcdf9289be02196';
const SHA256B = '6ddf9e4f40a00c9c803fc850c98175fc269762f22bc2d0e4112b65ec1efba16a';
const SHA512 = `${'7d35f0c05d8c02e358df1229b6db8cfc'.repeat(4)}`;
const HASHES = `${SHA256}  foo.tar.gz\n${MD5}  ./dir2/foo.tar.gz\n${SHA256B} *bar.tgz\n${SHA512}  other file.txt\n`;

describe('extract_hash', () => {
  it('takes the first hash of the type when no name matches', () => {
    expect(extractHashFrom(HASHES, 'sha256', '', '', null)).toEqual({ hsum: SHA256, hash_type: 'sha256' });
    expect(extractHashFrom(HASHES, 'md5', '', '', null)).toEqual({ hsum: MD5, hash_type: 'md5' });
    expect(extractHashFrom(HASHES, 'sha1', '', '', null)).toBeNull();
  });

  it("matches the file name's basename after a space, slash or star", () => {
    expect(extractHashFrom(HASHES, '', '/x/foo.tar.gz', '', null)).toEqual({
      hsum: SHA256,
      hash_type: 'sha256',
    });
    expect(extractHashFrom(HASHES, 'sha256', '', 'http://h/dir/bar.tgz', null)).toEqual({
      hsum: SHA256B,
      hash_type: 'sha256',
    });
    expect(extractHashFrom(HASHES, 'sha512', '/a/other file.txt', '', null)).toEqual({
      hsum: SHA512,
      hash_type: 'sha512',
    });
  });

  it('prefers source_hash_name over the file name, and warns of an unknown type', () => {
    expect(extractHashFrom(HASHES, '', 'foo.tar.gz', '', './dir2/foo.tar.gz')).toEqual({
      hsum: MD5,
      hash_type: 'md5',
    });
    const warned: string[] = [];
    expect(extractHashFrom(HASHES, 'bogus', '', 'salt://x/bar.tgz', null, (m) => warned.push(m))).toEqual({
      hsum: SHA256B,
      hash_type: 'sha256',
    });
    expect(warned[0]).toContain("Unsupported hash_type 'bogus'");
  });

  it('keeps the case of the hash it found; a missing file is an OS error', async () => {
    expect(extractHashFrom('ABCDEF0123456789ABCDEF0123456789 x\n', 'md5', '', '', null)).toEqual({
      hsum: 'ABCDEF0123456789ABCDEF0123456789',
      hash_type: 'md5',
    });
    await expect(extractHash('/nonexist/h', 'sha256', '', '', null)).rejects.toThrow(
      "[Errno 2] No such file or directory: '/nonexist/h'",
    );
  });
});

describe('get_source_sum', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tsalt-t-hashx-'));
    await writeFile(join(dir, 'hashes'), HASHES);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));
  const sum = (hash: string, fileName = '', source = '') =>
    sourceSum(fakeCtx(), fileName, source, hash, null, 'base');

  it('reads hash expressions, lowercased', async () => {
    expect(await sum(MD5.toUpperCase())).toEqual({ hsum: MD5, hash_type: 'md5' });
    expect(await sum(`md5=${MD5.toUpperCase()}`)).toEqual({ hash_type: 'md5', hsum: MD5 });
  });

  it("refuses what is not one, in Salt's words", async () => {
    await expect(sum(`sha256=${MD5}`)).rejects.toThrow(
      `Invalid length (32) for hash type 'sha256'. Either remove the hash type and simply use '${MD5}' as the source_hash, or change the hash type to 'md5'`,
    );
    await expect(sum(`foo=${MD5}`)).rejects.toThrow(
      "Invalid hash type 'foo'. Supported hash types are: sha512, sha384, sha256, sha224, sha1, md5.",
    );
    await expect(sum('xyz')).rejects.toThrow('Source hash xyz format is invalid.');
    await expect(sum(`md5:${MD5}`)).rejects.toThrow(`Source hash md5:${MD5} format is invalid.`);
    await expect(sum('abcdef')).rejects.toThrow(
      'following are supported hash types and lengths: md5 (32), sha1 (40), sha224 (56), sha256 (64), sha384 (96), sha512 (128).',
    );
  });

  it('looks a local hash file up by the file and source names', async () => {
    expect(await sum(join(dir, 'hashes'), '/tmp/foo.tar.gz', 'http://x/foo.tar.gz')).toEqual({
      hsum: SHA256,
      hash_type: 'sha256',
    });
  });
});
