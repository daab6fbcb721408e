import { describe, expect, expectTypeOf, it } from 'vitest';
import { type ConfigEnv, type ConfigFn, defineConfig, defineMinionConfig } from './define-config.js';
import type { LoadedConfig } from './load.js';
import { loadConfig } from './load.js';
import type { ResolvedMasterConfig, ResolvedMinionConfig } from './resolve.js';
import type { KernelPluginLike } from './schema-common.js';
import type { UserMasterConfig } from './schema-master.js';
import type { UserMinionConfig } from './schema-minion.js';

interface RichPlugin {
  name: string;
  enforce?: 'pre' | 'post';
  apply(api: { hooks: Record<string, unknown> }): void;
}

describe('defineConfig', () => {
  it('returns its argument for each form', async () => {
    const object = { ret_port: 4510 };
    expect(defineConfig(object)).toBe(object);
    const promise = Promise.resolve({ timeout: 3 });
    expect(defineConfig(promise)).toBe(promise);
    const fn = (env: ConfigEnv) => ({ id: env.kind });
    expect(defineConfig(fn)).toBe(fn);
    expect(defineMinionConfig({ master: 'm' })).toEqual({ master: 'm' });
  });

  it('types each form', () => {
    expectTypeOf(defineConfig({ ret_port: 1 })).toEqualTypeOf<UserMasterConfig>();
    expectTypeOf(defineConfig(Promise.resolve({}))).toEqualTypeOf<Promise<UserMasterConfig>>();
    expectTypeOf(defineConfig(() => ({}))).toEqualTypeOf<ConfigFn<UserMasterConfig>>();
    expectTypeOf(defineMinionConfig({ master: ['a'] })).toEqualTypeOf<UserMinionConfig>();
    // Salt's YAML habits are not part of the typed input: ports are numbers.
    // @ts-expect-error ret_port is a number
    defineConfig({ ret_port: '4506' });
    // @ts-expect-error unknown options are not allowed in typed configs
    defineConfig({ ret_prot: 4506 });
    // A plugin with a richer API type is still a plugin (method parameters are bivariant).
    const plugin: RichPlugin = { name: 'rich', apply() {} };
    defineConfig({ plugins: [plugin] });
  });
});

describe('resolved types', () => {
  it('are read-only and typed per kind', () => {
    // types only: a call would start a load that outlives the test (its lazy imports after teardown)
    expectTypeOf(() => loadConfig('master', '/x')).returns.toEqualTypeOf<
      Promise<LoadedConfig<ResolvedMasterConfig>>
    >();
    expectTypeOf(() => loadConfig('minion', '/x')).returns.toEqualTypeOf<
      Promise<LoadedConfig<ResolvedMinionConfig>>
    >();
    expectTypeOf<ResolvedMasterConfig['ret_port']>().toEqualTypeOf<number>();
    expectTypeOf<ResolvedMasterConfig['extension_modules']>().toEqualTypeOf<string>();
    expectTypeOf<ResolvedMasterConfig['autosign_file']>().toEqualTypeOf<string | null>();
    expectTypeOf<ResolvedMasterConfig['engines_dirs']>().toEqualTypeOf<readonly string[]>();
    expectTypeOf<ResolvedMinionConfig['id']>().toEqualTypeOf<string | null>();
    expectTypeOf<ResolvedMinionConfig['master']>().toEqualTypeOf<string | readonly string[]>();
    expectTypeOf<ResolvedMasterConfig['plugins'][number]['name']>().toEqualTypeOf<string>();
    expectTypeOf<ResolvedMasterConfig['plugins'][number]>().toExtend<Readonly<KernelPluginLike>>();
    const check = (config: ResolvedMasterConfig) => {
      // @ts-expect-error the resolved config is read-only
      config.ret_port = 1;
      // @ts-expect-error nested values too
      config.module_dirs.push('x');
    };
    expect(typeof check).toBe('function');
  });
});
