import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleCtx } from '../states/_test-ctx.js';
import { which } from './_which.js';
import archiveMod from './archive.js';
import cmdMod from './cmd.js';
import userMod from './user.js';

// Expectations: Salt 3006.18's archive.zip/gzip/gunzip on the same tree (same names, same order)
const ctx = moduleCtx([archiveMod, cmdMod, userMod]);
const call = (fn: string, args: unknown[], kw: Record<string, unknown> = {}) =>
  ctx.call(`archive.${fn}`, args, kw);
const top = mkdtempSync(join(tmpdir(), 'tsalt-archive-pack-'));
mkdirSync(join(top, 'src/sub'), { recursive: true });
mkdirSync(join(top, 'src/empty'));
writeFileSync(join(top, 'src/a.txt'), 'a\n');
writeFileSync(join(top, 'src/sub/b.txt'), 'b\n');
writeFileSync(join(top, 'c.log'), 'c\n');
writeFileSync(join(top, 'd.log'), 'd\n');
afterAll(() => rmSync(top, { recursive: true, force: true }));
const members = (zip: string) =>
  execFileSync('unzip', ['-Z1', zip], { encoding: 'utf8' }).trim().split('\n').sort();

describe.skipIf(!which('zip') || !which('unzip'))('archive.zip', () => {
  it('names entries relative to cwd, folders with a slash, in walk order', async () => {
    const zip = join(top, 'one.zip');
    const want = ['src/', 'src/a.txt', 'src/empty/', 'src/sub/', 'src/sub/b.txt', 'c.log'];
    expect(await call('zip', [zip, 'src,c.log'], { cwd: top })).toEqual(want);
    expect(members(zip)).toEqual([...want].sort());
  });

  it('names absolute sources relative to /, expands globs, and starts a fresh archive', async () => {
    const zip = join(top, 'two.zip');
    const rel = top.slice(1);
    expect(await call('zip', [zip, `${top}/*.log`])).toEqual([`${rel}/c.log`, `${rel}/d.log`]);
    expect(await call('zip', [zip, [join(top, 'c.log')]])).toEqual([`${rel}/c.log`]);
    expect(members(zip)).toEqual([`${rel}/c.log`]);
  });

  it('writes an empty archive for sources that are not there; refuses what Salt refuses', async () => {
    const zip = join(top, 'empty.zip');
    expect(await call('zip', [zip, join(top, 'nothing-here')])).toEqual([]);
    expect(readFileSync(zip).subarray(0, 4).toString('latin1')).toBe('PK\x05\x06');
    await expect(call('zip', [zip, 'src'])).rejects.toThrow("Relative paths require the 'cwd' parameter");
    await expect(call('zip', [zip, 'src'], { cwd: 'rel' })).rejects.toThrow('cwd must be absolute');
    await expect(call('zip', [zip, join(top, 'src')], { runas: 'tsalt-t-nosuchuser' })).rejects.toThrow(
      "User 'tsalt-t-nosuchuser' does not exist",
    );
  });
});

describe.skipIf(!which('gzip'))('archive.gzip and gunzip', () => {
  it('packs and unpacks, returning the program output lines; options are one argument', async () => {
    const f = join(top, 'g.txt');
    writeFileSync(f, 'hello\n');
    expect(await call('gzip', [f])).toEqual([]);
    expect(existsSync(`${f}.gz`)).toBe(true);
    expect(await call('gunzip', [`${f}.gz`], { options: '-v' })).toEqual([
      `${f}.gz:\t-33.3% -- replaced with ${f}`,
    ]);
    expect(readFileSync(f, 'utf8')).toBe('hello\n');
    expect(await call('gunzip', [join(top, 'nope.gz')])).toEqual([
      `gzip: ${join(top, 'nope.gz')}: No such file or directory`,
    ]);
    expect(await call('gzip', [f], { options: '-9 -k' })).toEqual([
      "gzip: invalid option -- ' '",
      "Try `gzip --help' for more information.",
    ]);
  });
});
