import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from './define.js';
import { scanDirs, unitStem } from './scan.js';

const quiet: UnitLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function dirWith(names: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'tsalt-scan-'));
  roots.push(dir);
  for (const name of names) await writeFile(join(dir, name), '');
  return dir;
}

describe('unitStem', () => {
  it('takes .js and .mjs files and strips the extension', () => {
    expect(unitStem('test.js')).toBe('test');
    expect(unitStem('cmdmod.mjs')).toBe('cmdmod');
    expect(unitStem('a.b.js')).toBe('a.b');
  });

  it('skips private, hidden, test, declaration, map and other files', () => {
    for (const name of [
      '_helpers.js',
      '.hidden.js',
      'x.test.js',
      'x.test.mjs',
      'x.js.map',
      'x.d.ts',
      'x.cjs',
      'x.json',
      '.js',
      'x.ts',
    ]) {
      expect(unitStem(name), name).toBeUndefined();
    }
  });

  it('takes .ts and .mts only with a TypeScript loader, never declarations', () => {
    expect(unitStem('x.ts', true)).toBe('x');
    expect(unitStem('x.mts', true)).toBe('x');
    expect(unitStem('x.d.ts', true)).toBeUndefined();
    expect(unitStem('x.d.mts', true)).toBeUndefined();
    expect(unitStem('x.test.ts', true)).toBeUndefined();
  });
});

describe('scanDirs', () => {
  it('sorts each dir, keeps the first dir per stem and reports the rest as collisions', async () => {
    const a = await dirWith(['zeta.js', 'alpha.mjs', '_x.js']);
    const b = await dirWith(['alpha.js', 'beta.js']);
    const found = await scanDirs([a, join(a, 'missing'), b, a], { log: quiet });
    expect(found.ordered.map((f) => [f.stem, f.path, f.rank])).toEqual([
      ['alpha', join(a, 'alpha.mjs'), 0],
      ['zeta', join(a, 'zeta.js'), 1],
      ['beta', join(b, 'beta.js'), 2],
    ]);
    expect(found.collisions).toEqual([
      { module: 'alpha', kept: join(a, 'alpha.mjs'), ignored: join(b, 'alpha.js') },
    ]);
    expect(found.byStem.get('beta')?.path).toBe(join(b, 'beta.js'));
  });

  it('reports two files with one stem in the same dir', async () => {
    const a = await dirWith(['dup.js', 'dup.mjs']);
    const found = await scanDirs([a], { log: quiet });
    expect(found.ordered.map((f) => f.path)).toEqual([join(a, 'dup.js')]);
    expect(found.collisions).toHaveLength(1);
  });

  it('leaves out disabled stems and directories, follows symlinks to files', async () => {
    const a = await dirWith(['off.js', 'on.js']);
    await mkdir(join(a, 'dir.js'));
    await symlink(join(a, 'on.js'), join(a, 'link.js'));
    const found = await scanDirs([a], { log: quiet, disabled: new Set(['off']) });
    expect(found.ordered.map((f) => f.stem)).toEqual(['link', 'on']);
  });
});
