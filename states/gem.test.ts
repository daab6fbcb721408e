import { describe, expect, it } from 'vitest';
import cmdMod from '../modules/cmd.js';
import configMod from '../modules/config.js';
import gemMod from '../modules/gem.js';
import { GEM_MISSING, useGemFixture } from '../test/support/gem-env.js';
import { moduleCtx, runState } from './_test-ctx.js';
import gem from './gem.js';

// Expectations: Salt 3006.18's gem states' returns for the same steps (tools/compare-gem.ts):
// throwaway gems from a local file:// source, a temp GEM_HOME and gemrc named by this
// process's environment.
const A = 'tsalt-gemfix-a';
const B = 'tsalt-gemfix-b';
const use = useGemFixture();
const ctx = moduleCtx([cmdMod, configMod, gemMod]);
const st = (fn: string, kw: Record<string, unknown>, test = false) => runState(gem, fn, kw, { ctx, test });
const ok = (name: string, comment: string, changes: Record<string, string> = {}) => ({
  name,
  result: true,
  comment,
  changes,
});

describe.skipIf(GEM_MISSING)(`gem states${GEM_MISSING ? ` (skipped: ${GEM_MISSING})` : ''}`, () => {
  it('installed: test mode, a version, version conditions, pre-releases; removed', async () => {
    expect(await st('installed', { name: A }, true)).toEqual({
      name: A,
      result: null,
      comment: `The gem ${A} would have been installed`,
      changes: {},
    });
    expect(await st('installed', { name: A, version: '1.0.0' })).toEqual(
      ok(A, 'Gem was successfully installed', { [A]: 'Installed' }),
    );
    expect(await st('installed', { name: A, version: '1.0.0' })).toEqual(ok(A, 'Gem is already installed.'));
    expect(await st('installed', { name: A })).toEqual(ok(A, 'Gem is already installed.'));
    expect(await st('installed', { name: A, version: '>=1.0' })).toEqual(
      ok(A, 'Installed Gem meets version requirements.'),
    );
    // Salt's quirk: `<=` is read as `<` of "=0.5", which "1.0.0" is (as text)
    expect(await st('installed', { name: A, version: '<=0.5' }, true)).toEqual(
      ok(A, 'Installed Gem meets version requirements.'),
    );
    expect(await st('installed', { name: A, version: '>1.0.0' }, true)).toMatchObject({ result: null });
    expect(await st('installed', { name: A, version: '1.1.0' }, true)).toMatchObject({
      result: null,
      comment: `The gem ${A} would have been installed`,
    });
    // ruby without rvm or rbenv: a warning, then plain gem
    expect(await st('installed', { name: A, ruby: 2.7, pre_releases: true, version: '>1.1' })).toEqual(
      ok(A, 'Gem was successfully installed', { [A]: 'Installed' }),
    );
    expect(await ctx.call('gem.list', [A])).toEqual({ [A]: ['2.0.0.pre1', '1.0.0'] });
    expect(await st('installed', { name: B, rdoc: true, ri: true, source: use.fx.source })).toEqual(
      ok(B, 'Gem was successfully installed', { [B]: 'Installed' }),
    );
    expect(await st('removed', { name: A }, true)).toEqual({
      name: A,
      result: null,
      comment: `The gem ${A} would have been removed`,
      changes: {},
    });
    expect(await st('removed', { name: A })).toEqual(
      ok(A, 'Gem was successfully removed.', { [A]: 'Removed' }),
    );
    expect(await st('removed', { name: A })).toEqual(ok(A, 'Gem is not installed.'));
    expect(await st('removed', { name: B, gem_bin: use.fx.gemBin })).toEqual(
      ok(B, 'Gem was successfully removed.', { [B]: 'Removed' }),
    );
    expect(await ctx.call('gem.list', ['tsalt-gemfix'])).toEqual({});
  }, 180_000);

  it("installed fails with gem's error for a gem no source has", async () => {
    await expect(st('installed', { name: 'tsalt-gemfix-nope' })).rejects.toThrow(
      "Could not find a valid gem 'tsalt-gemfix-nope'",
    );
  }, 60_000);

  it('sources_add and sources_remove', async () => {
    const name = use.fx.source2;
    expect(await st('sources_add', { name }, true)).toEqual({
      name,
      result: null,
      comment: `The gem source ${name} would have been added.`,
      changes: {},
    });
    expect(await st('sources_add', { name })).toEqual(
      ok(name, 'Gem source was successfully added.', { [name]: 'Installed' }),
    );
    expect(await st('sources_add', { name })).toEqual(ok(name, 'Gem source is already added.'));
    expect(await st('sources_remove', { name }, true)).toEqual({
      name,
      result: null,
      comment: 'The gem source would have been removed.',
      changes: {},
    });
    expect(await st('sources_remove', { name })).toEqual(
      ok(name, 'Gem source was successfully removed.', { [name]: 'Removed' }),
    );
    expect(await st('sources_remove', { name })).toEqual(ok(name, 'Gem source is already removed.'));
    expect(await ctx.call('gem.sources_list')).toEqual([use.fx.source]);
  }, 120_000);
});
