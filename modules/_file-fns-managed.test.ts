import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { pyEncode } from './_py-encode.js';
import cmd from './cmd.js';
import config from './config.js';
import cp from './cp.js';
import file from './file.js';

// The file.managed building blocks called as Salt's signatures say: positionally, required
// arguments required; real files in a temp dir, salt:// from a local file_roots.
let dir: string;
let roots: string;
const ctx = (opts: Record<string, unknown> = {}) =>
  moduleCtx([file, cp, cmd, config], {
    opts: {
      cachedir: join(dir, 'cache'),
      file_client: 'local',
      file_roots: { base: [roots] },
      hash_type: 'sha256',
      ...opts,
    },
    grains: { id: 'py1', kernel: 'Linux' },
  });

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tsalt-t-managed-'));
  roots = join(dir, 'roots');
  await mkdir(roots);
  await writeFile(join(roots, 'conf'), 'served\n', { mode: 0o640 });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

// name, sfn, ret, source, source_sum, user, group, mode, attrs, saltenv, backup
const required = (name: string, source: string | null, mode: string | null) => [
  name,
  '',
  {},
  source,
  {},
  null,
  null,
  mode,
  null,
  'base',
  '',
];

describe('file.manage_file', () => {
  it('needs its 11 positional arguments, as Salt', async () => {
    await expect(
      ctx().call('file.manage_file', required(join(dir, 'x'), null, null).slice(0, 10)),
    ).rejects.toThrow("manage_file() missing 1 required positional argument: 'backup'");
  });

  it('writes contents in the given encoding, refusing what the codec cannot hold', async () => {
    const dest = join(dir, 'latin');
    const more = { contents: 'café\n', encoding: 'latin-1' };
    const ret = (await ctx().call('file.manage_file', required(dest, null, null), more)) as {
      result: boolean;
    };
    expect(ret.result).toBe(true);
    expect(await readFile(dest)).toEqual(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    await expect(
      ctx().call('file.manage_file', required(join(dir, 'ascii'), null, null), {
        contents: 'café',
        encoding: 'ascii',
      }),
    ).rejects.toThrow(
      "'ascii' codec can't encode character '\\xe9' in position 3: ordinal not in range(128)",
    );
  });

  it('keep_mode takes the mode of a salt:// source', async () => {
    const dest = join(dir, 'kept');
    await ctx().call('file.manage_file', required(dest, 'salt://conf', '0600'), { keep_mode: true });
    expect(await readFile(dest, 'utf8')).toBe('served\n');
    expect((await stat(dest)).mode & 0o777).toBe(0o640);
    const plain = join(dir, 'plain');
    await ctx().call('file.manage_file', required(plain, 'salt://conf', '0600'));
    expect((await stat(plain)).mode & 0o777).toBe(0o600);
  });
});

describe('file.get_diff', () => {
  it('template=True with obfuscate_templates hides the diff, as Salt', async () => {
    await writeFile(join(dir, 'a'), 'one\n');
    await writeFile(join(dir, 'b'), 'two\n');
    const args = [join(dir, 'a'), join(dir, 'b'), 'base', true, true, true];
    expect(await ctx({ obfuscate_templates: true }).call('file.get_diff', args)).toBe(
      '<Obfuscated Template>',
    );
    expect(String(await ctx().call('file.get_diff', args))).toContain('-one\n+two\n');
  });
});

describe('pyEncode', () => {
  it("follows Python's error handlers and codecs", () => {
    expect(pyEncode('aé', 'ascii', 'replace').toString('latin1')).toBe('a?');
    expect(pyEncode('aé', 'ascii', 'ignore').toString('latin1')).toBe('a');
    expect(pyEncode('a€', 'latin-1', 'xmlcharrefreplace').toString('latin1')).toBe('a&#8364;');
    expect(pyEncode('a€', 'latin_1', 'backslashreplace').toString('latin1')).toBe('a\\u20ac');
    expect([...pyEncode('a', 'utf-16')]).toEqual([0xff, 0xfe, 0x61, 0x00]);
    expect([...pyEncode('a', 'UTF-16-BE')]).toEqual([0x00, 0x61]);
    expect(() => pyEncode('a', 'koi9')).toThrow('unknown encoding: koi9');
  });
});
