import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { which } from '../modules/_which.js';
import cmdMod from '../modules/cmd.js';
import npmMod from '../modules/npm.js';
import { makeNpmFixture, NPM_OFFLINE, type NpmFixture } from '../test/support/npm-fixture.js';
import { moduleCtx, runState } from './_test-ctx.js';
import npm from './npm.js';

// Expectations: Salt 3006.18's npm states' returns for the same steps (a packed tarball,
// installed offline into a temp project).
let fx: NpmFixture;
const ctx = moduleCtx([cmdMod, npmMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) =>
  runState(npm, fn, { env: NPM_OFFLINE, ...kw }, { ctx, test });

beforeAll(async () => {
  if (which('npm')) fx = await makeNpmFixture();
}, 120_000);
afterAll(() => (fx ? rm(fx.dir, { recursive: true, force: true }) : undefined));

describe.skipIf(!which('npm'))('npm states', () => {
  it('installed: installs a tarball, then finds the package satisfied; removed removes it', async () => {
    const name = 'tsalt-fixture-npm';
    expect(await st('installed', { name, dir: fx.project }, true)).toEqual({
      name,
      result: null,
      comment: `NPM package(s) '${name}' are set to be installed`,
      changes: { old: [], new: [name] },
    });
    expect(await st('installed', { name: 'x', pkgs: [fx.tarball], dir: fx.project })).toEqual({
      name: 'x',
      result: true,
      comment: `Package(s) '${fx.tarball}' successfully installed`,
      changes: { old: [], new: [fx.tarball] },
    });
    expect(await st('installed', { name, dir: fx.project })).toEqual({
      name,
      result: true,
      comment: `Package(s) '${name}' satisfied by ${name}@1.2.3`,
      changes: {},
    });
    expect(await st('installed', { name: `${name}@9.9.9`, dir: fx.project }, true)).toMatchObject({
      result: null,
      comment: `NPM package(s) '${name}@9.9.9' are set to be installed`,
    });
    expect(await st('removed', { name, dir: fx.project }, true)).toEqual({
      name,
      result: null,
      comment: `Package '${name}' is set to be removed`,
      changes: {},
    });
    expect(await st('removed', { name, dir: fx.project })).toEqual({
      name,
      result: true,
      comment: `Package '${name}' was successfully removed`,
      changes: { [name]: 'Removed' },
    });
    expect(await st('removed', { name, dir: fx.project })).toEqual({
      name,
      result: true,
      comment: `Package '${name}' is not installed`,
      changes: {},
    });
  }, 240_000);
});
