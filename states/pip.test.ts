import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import pipMod from '../modules/pip.js';
import { canVenv, makePipFixture, type PipFixture } from '../test/support/pip-fixture.js';
import { moduleCtx, runState } from './_test-ctx.js';
import pip from './pip.js';

// Expectations: Salt 3006.18's pip.removed returns for the same steps in a throwaway venv.
let fx: PipFixture | undefined;
const ctx = moduleCtx([cmdMod, pipMod]);
const st = (kw: Record<string, unknown>, test = false) => runState(pip, 'removed', kw, { ctx, test });

beforeAll(async () => {
  if (canVenv) fx = await makePipFixture();
}, 300_000);
afterAll(() => (fx ? rm(fx.dir, { recursive: true, force: true }) : undefined));

describe.skipIf(!canVenv)('pip.removed', () => {
  it('predicts, removes, then finds the package gone', async () => {
    const { venv, wheels } = fx as PipFixture;
    const name = 'tsalt-fixture';
    const r = (await ctx.call('pip.install', [name], {
      bin_env: venv,
      find_links: wheels,
      no_index: true,
    })) as {
      retcode: number;
    };
    expect(r.retcode).toBe(0);
    expect(await st({ name, bin_env: venv }, true)).toEqual({
      name,
      result: null,
      comment: `Package ${name} is set to be removed`,
      changes: {},
    });
    expect(await st({ name, bin_env: venv })).toEqual({
      name,
      result: true,
      comment: 'Package was successfully removed.',
      changes: { [name]: 'Removed' },
    });
    expect(await st({ name, bin_env: venv })).toEqual({
      name,
      result: true,
      comment: 'Package is not installed.',
      changes: {},
    });
  }, 240_000);

  it('fails with the error of a bin_env that has no pip', async () => {
    expect(await st({ name: 'x', bin_env: (fx as PipFixture).wheels })).toEqual({
      name: 'x',
      result: false,
      comment: `Error uninstalling 'x': Could not find a pip binary in virtualenv ${(fx as PipFixture).wheels}`,
      changes: {},
    });
  });
});

describe.skipIf(!canVenv)('pip.installed', () => {
  const inst = (kw: Record<string, unknown>, test = false) =>
    runState(
      pip,
      'installed',
      { find_links: (fx as PipFixture).wheels, no_index: true, ...kw },
      { ctx, test },
    );

  it("predicts, installs, then finds it installed; a version it cannot meet fails with pip's words", async () => {
    const { venv } = fx as PipFixture;
    const name = 'tsalt-fixture';
    await ctx.call('pip.uninstall', [name], { bin_env: venv });
    expect(await inst({ name, bin_env: venv }, true)).toEqual({
      name,
      result: null,
      comment: `Python package ${name} is set to be installed`,
      changes: {},
    });
    expect(await inst({ name, bin_env: venv })).toEqual({
      name,
      result: true,
      comment: 'All packages were successfully installed',
      changes: { 'tsalt-fixture==1.0': 'Installed' },
    });
    expect(await inst({ name: 'tsalt_fixture==1.0', bin_env: venv })).toEqual({
      name: 'tsalt_fixture==1.0',
      result: true,
      comment:
        'Python package tsalt_fixture==1.0 was already installed\nAll specified packages are already installed',
      changes: {},
    });
    const higher = await inst({ name: 'x', pkgs: ['tsalt-fixture>=2', 'tsalt-fixture<2'], bin_env: venv });
    expect(higher).toMatchObject({ name: 'tsalt-fixture>=2;tsalt-fixture<2', result: false, changes: {} });
    expect(higher.comment).toMatch(
      /^Python package tsalt-fixture<2 was already installed\nFailed to install packages: tsalt-fixture>=2\. Error: .*No matching distribution found for tsalt-fixture>=2/s,
    );
  }, 240_000);

  it("refuses Salt's bad inputs before pip runs", async () => {
    const { venv } = fx as PipFixture;
    expect(await inst({ name: 'tsalt-fixture=1.0', bin_env: venv })).toEqual({
      name: 'tsalt-fixture=1.0',
      result: false,
      comment:
        "Invalid version specification in package tsalt-fixture=1.0. '=' is not supported, use '==' instead.",
      changes: {},
    });
    expect(await inst({ name: 'x', pkgs: 'a,b', bin_env: venv })).toEqual({
      name: 'x',
      result: false,
      comment: 'pkgs argument must be formatted as a list',
      changes: {},
    });
    expect(await inst({ name: 'x', bin_env: (fx as PipFixture).wheels })).toEqual({
      name: 'x',
      result: false,
      comment: `Error installing 'x': Could not find a pip binary in virtualenv ${(fx as PipFixture).wheels}`,
      changes: {},
    });
  });
});
