import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { UnitLogger } from './define.js';
import { findPackageJson, readPackageDir, resolvePackageDirs } from './packages.js';

const pkgroot = resolve('test/fixtures/loader/pkgroot');
const roots: string[] = [];
afterAll(async () => {
  await Promise.all(roots.map((dir) => rm(dir, { recursive: true, force: true })));
});

function recorder(): { log: UnitLogger; warns: string[] } {
  const warns: string[] = [];
  const none = () => {};
  return {
    log: { trace: none, debug: none, info: none, error: none, warn: (_o, msg) => warns.push(msg ?? '') },
    warns,
  };
}

describe('findPackageJson', () => {
  it('resolves a package from a directory', () => {
    expect(findPackageJson('tsalt-ext-demo', pkgroot)).toBe(
      join(pkgroot, 'node_modules/tsalt-ext-demo/package.json'),
    );
    expect(findPackageJson('tsalt-ext-demo', join(pkgroot, 'node_modules/tsalt-ext-nofield'))).toBe(
      join(pkgroot, 'node_modules/tsalt-ext-demo/package.json'),
    );
    expect(findPackageJson('tsalt-ext-absent', pkgroot)).toBeUndefined();
  });

  it('finds a package whose exports map hides package.json', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tsalt-pkg-'));
    roots.push(root);
    const pkgDir = join(root, 'node_modules', '@acme', 'tsalt-ext-x');
    await mkdir(pkgDir, { recursive: true });
    const pkg = {
      name: '@acme/tsalt-ext-x',
      exports: { '.': './index.js' },
      tsalt: { modules: './dist/modules' },
    };
    await writeFile(join(pkgDir, 'package.json'), JSON.stringify(pkg));
    await mkdir(join(pkgDir, 'dist/modules'), { recursive: true });
    expect(findPackageJson('@acme/tsalt-ext-x', root)).toBe(join(pkgDir, 'package.json'));
    expect(
      resolvePackageDirs(['@acme/tsalt-ext-x'], { resolveFrom: root, kind: 'modules', log: recorder().log }),
    ).toEqual([join(pkgDir, 'dist/modules')]);
  });
});

describe('readPackageDir', () => {
  it('reads tsalt.<kind> relative to the package', () => {
    const pj = join(pkgroot, 'node_modules/tsalt-ext-demo/package.json');
    expect(readPackageDir(pj, 'modules')).toEqual({ dir: join(pkgroot, 'node_modules/tsalt-ext-demo/mods') });
    expect(readPackageDir(pj, 'returners')).toEqual({
      reason: `${pj} has no "tsalt.returners" field`,
      absent: true,
    });
  });

  it('explains a missing field or an unreadable file', () => {
    const pj = join(pkgroot, 'node_modules/tsalt-ext-nofield/package.json');
    expect(readPackageDir(pj, 'modules')).toEqual({
      reason: `${pj} has no "tsalt" field: it is not a tsalt extension package`,
    });
    expect(readPackageDir(join(pkgroot, 'nope.json'), 'modules')).toMatchObject({
      reason: expect.stringContaining('cannot read'),
    });
  });
});

describe('resolvePackageDirs', () => {
  it('names a declared folder that does not exist', async () => {
    const root = await mkdtemp(join(tmpdir(), 'tsalt-pkg-'));
    roots.push(root);
    const pkgDir = join(root, 'node_modules', 'tsalt-ext-gone');
    await mkdir(pkgDir, { recursive: true });
    await writeFile(
      join(pkgDir, 'package.json'),
      JSON.stringify({ name: 'tsalt-ext-gone', tsalt: { returners: './dist/returners' } }),
    );
    const { log, warns } = recorder();
    expect(resolvePackageDirs(['tsalt-ext-gone'], { resolveFrom: root, kind: 'returners', log })).toEqual([]);
    expect(warns).toEqual([
      `extension package tsalt-ext-gone: "tsalt.returners" in ${join(pkgDir, 'package.json')} points to ${join(pkgDir, 'dist/returners')}, which does not exist`,
    ]);
    expect(resolvePackageDirs(['tsalt-ext-gone'], { resolveFrom: root, kind: 'modules', log })).toEqual([]);
    expect(warns).toHaveLength(1);
  });

  it('keeps the order given and warns about packages it cannot use', () => {
    const { log, warns } = recorder();
    const dirs = resolvePackageDirs(['tsalt-ext-absent', 'tsalt-ext-nofield', 'tsalt-ext-demo'], {
      resolveFrom: pkgroot,
      kind: 'modules',
      log,
    });
    expect(dirs).toEqual([join(pkgroot, 'node_modules/tsalt-ext-demo/mods')]);
    expect(warns).toEqual([
      'extension package tsalt-ext-absent not found',
      `extension package tsalt-ext-nofield: ${join(pkgroot, 'node_modules/tsalt-ext-nofield/package.json')} has no "tsalt" field: it is not a tsalt extension package`,
    ]);
  });
});
