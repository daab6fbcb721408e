/**
 * Type tests of the public plugin and unit types. Checked by `tsc --noEmit -p .` (and by vitest
 * when its typecheck mode is on); nothing here runs.
 */
import type { AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { KernelHooks, TapOnly, TapOnlyHook } from './hooks.js';
import type { JobReturn, PublishLoad, SaltEvent, StoredJob } from './jobs/types.js';
import type { Kernel } from './kernel.js';
import {
  defineFunction,
  defineModule,
  type ExecContext,
  type ExtraArgs,
  type FunctionSpec,
} from './loader/define.js';
import { definePlugin, type KernelPlugin, type PluginApi } from './plugin.js';

type Hooks = TapOnly<KernelHooks>;

describe('KernelHooks', () => {
  it('uses the documented tapable classes and argument types', () => {
    expectTypeOf<KernelHooks['configResolved']>().toEqualTypeOf<
      SyncHook<[Readonly<Record<string, unknown>>]>
    >();
    expectTypeOf<KernelHooks['beforePublish']>().toEqualTypeOf<AsyncSeriesWaterfallHook<[PublishLoad]>>();
    expectTypeOf<KernelHooks['jobPublished']>().toEqualTypeOf<AsyncSeriesHook<[StoredJob]>>();
    expectTypeOf<KernelHooks['returnReceived']>().toEqualTypeOf<AsyncSeriesHook<[JobReturn]>>();
    expectTypeOf<KernelHooks['eventFired']>().toEqualTypeOf<SyncHook<[SaltEvent]>>();
    expectTypeOf<KernelHooks['shutdown']>().toEqualTypeOf<AsyncSeriesHook<[]>>();
  });

  it('is readonly: a hook cannot be replaced', () => {
    const replace = (hooks: KernelHooks, other: KernelHooks['shutdown']): void => {
      // @ts-expect-error the hooks object is frozen and typed readonly
      hooks.shutdown = other;
    };
    expectTypeOf(replace).toBeFunction();
  });

  it('is the full, callable object on the kernel', () => {
    expectTypeOf<Kernel['hooks']>().toEqualTypeOf<KernelHooks>();
    expectTypeOf<KernelHooks['beforePublish']['promise']>().toEqualTypeOf<
      (load: PublishLoad) => Promise<PublishLoad>
    >();
    expectTypeOf<KernelHooks['eventFired']>().toHaveProperty('call');
  });
});

describe('TapOnly<KernelHooks>', () => {
  it('keeps the same hook names', () => {
    expectTypeOf<keyof Hooks>().toEqualTypeOf<keyof KernelHooks>();
    expectTypeOf<Hooks['shutdown']>().toEqualTypeOf<TapOnlyHook<KernelHooks['shutdown']>>();
  });

  it('has no call, callAsync or promise on any hook', () => {
    expectTypeOf<Hooks['configResolved']>().not.toHaveProperty('call');
    expectTypeOf<Hooks['configResolved']>().not.toHaveProperty('callAsync');
    expectTypeOf<Hooks['configResolved']>().not.toHaveProperty('promise');
    expectTypeOf<Hooks['beforePublish']>().not.toHaveProperty('promise');
    expectTypeOf<Hooks['beforePublish']>().not.toHaveProperty('callAsync');
    expectTypeOf<Hooks['jobPublished']>().not.toHaveProperty('promise');
    expectTypeOf<Hooks['returnReceived']>().not.toHaveProperty('promise');
    expectTypeOf<Hooks['eventFired']>().not.toHaveProperty('call');
    expectTypeOf<Hooks['shutdown']>().not.toHaveProperty('promise');
    expectTypeOf<Hooks['shutdown']>().not.toHaveProperty('callAsync');
  });

  it('rejects calls from a plugin at compile time', () => {
    const misuse = (hooks: Hooks, load: PublishLoad, ret: JobReturn, job: StoredJob): void => {
      // @ts-expect-error plugins cannot call a sync hook
      hooks.configResolved.call({});
      // @ts-expect-error plugins cannot call a sync hook
      hooks.eventFired.call({ tag: 't', data: {} });
      // @ts-expect-error plugins cannot call an async hook
      void hooks.beforePublish.promise(load);
      // @ts-expect-error plugins cannot call an async hook
      void hooks.returnReceived.promise(ret);
      // @ts-expect-error no callAsync either
      hooks.jobPublished.callAsync(job, () => {});
      // @ts-expect-error plugins cannot run shutdown
      void hooks.shutdown.promise();
    };
    expectTypeOf(misuse).toBeFunction();
  });

  it('keeps tap on every hook and tapPromise on async hooks only', () => {
    expectTypeOf<Hooks['configResolved']>().toHaveProperty('tap');
    expectTypeOf<Hooks['eventFired']>().toHaveProperty('tap');
    expectTypeOf<Hooks['beforePublish']>().toHaveProperty('tapPromise');
    expectTypeOf<Hooks['returnReceived']>().toHaveProperty('tapPromise');
    expectTypeOf<Hooks['shutdown']>().toHaveProperty('tapPromise');
    expectTypeOf<Hooks['eventFired']>().not.toHaveProperty('tapPromise');
  });

  it('types the arguments and return value of taps', () => {
    const taps = (hooks: Hooks): void => {
      hooks.configResolved.tap('p', (config) => {
        expectTypeOf(config).toEqualTypeOf<Readonly<Record<string, unknown>>>();
      });
      hooks.beforePublish.tapPromise('p', async (load) => {
        expectTypeOf(load).toEqualTypeOf<PublishLoad>();
        return { ...load, metadata: { by: 'p' } };
      });
      // @ts-expect-error a beforePublish tap must resolve to a load
      hooks.beforePublish.tapPromise('p', async () => 42);
      hooks.jobPublished.tapPromise('p', async (job) => {
        expectTypeOf(job).toEqualTypeOf<StoredJob>();
      });
      hooks.returnReceived.tapPromise({ name: 'p', stage: 10 }, async (ret) => {
        expectTypeOf(ret).toEqualTypeOf<JobReturn>();
      });
      hooks.eventFired.tap('p', (event) => {
        expectTypeOf(event).toEqualTypeOf<SaltEvent>();
      });
      hooks.shutdown.tapPromise('p', async (...args) => {
        expectTypeOf(args).toEqualTypeOf<[]>();
      });
    };
    expectTypeOf(taps).toBeFunction();
  });
});

describe('PluginApi', () => {
  it('hands plugins the tap-only view', () => {
    expectTypeOf<PluginApi['hooks']>().toEqualTypeOf<TapOnly<KernelHooks>>();
    expectTypeOf<PluginApi['hooks']>().not.toEqualTypeOf<KernelHooks>();
  });

  it('is readonly and narrow', () => {
    expectTypeOf<keyof PluginApi>().toEqualTypeOf<
      | 'daemon'
      | 'hooks'
      | 'returners'
      | 'commands'
      | 'processes'
      | 'tasks'
      | 'kinds'
      | 'config'
      | 'log'
      | 'kernelVersion'
    >();
    const write = (api: PluginApi): void => {
      // @ts-expect-error the api is readonly
      api.config = {};
    };
    expectTypeOf(write).toBeFunction();
  });

  it('definePlugin keeps the plugin type and types apply(api)', () => {
    const p = definePlugin({
      name: 'acme',
      enforce: 'pre',
      apply(api) {
        expectTypeOf(api).toEqualTypeOf<PluginApi>();
      },
    });
    expectTypeOf(p).toExtend<KernelPlugin>();
    expectTypeOf(p.enforce).toEqualTypeOf<'pre'>();
    // @ts-expect-error enforce is 'pre' | 'post'
    definePlugin({ name: 'x', enforce: 'early', apply() {} });
  });
});

describe('defineFunction / defineModule', () => {
  const echo = defineFunction({
    args: z.object({ text: z.string(), times: z.number().int().default(1), sep: z.string().optional() }),
    doc: 'Repeat text.',
    run(ctx, args, extra) {
      expectTypeOf(ctx).toEqualTypeOf<ExecContext>();
      expectTypeOf(args).toEqualTypeOf<{ text: string; times: number; sep?: string | undefined }>();
      expectTypeOf(extra).toEqualTypeOf<ExtraArgs>();
      // @ts-expect-error times is a number after parsing
      const wrong: string = args.times;
      void wrong;
      return args.text.repeat(args.times);
    },
  });

  it('infers the argument record from the zod schema (output type, defaults applied)', () => {
    expectTypeOf<Parameters<typeof echo.run>[1]>().toEqualTypeOf<{
      text: string;
      times: number;
      sep?: string | undefined;
    }>();
  });

  it('infers the return type', () => {
    expectTypeOf<ReturnType<typeof echo.run>>().toEqualTypeOf<string | Promise<string>>();
    const ping = defineFunction({ run: async () => true as const });
    expectTypeOf<ReturnType<typeof ping.run>>().toEqualTypeOf<Promise<true> | true>();
    expectTypeOf(ping).toExtend<FunctionSpec>();
  });

  it('rejects a run() whose args do not match the schema', () => {
    // @ts-expect-error `n` is a number, not a string
    defineFunction({
      args: z.object({ n: z.number() }),
      run: (_ctx: ExecContext, args: { n: string }) => args.n,
    });
  });

  it('defineModule keeps the exact module type', () => {
    const mod = defineModule({
      name: 'hello',
      aliases: ['hi'],
      virtual: () => true,
      functions: { echo, world: defineFunction({ run: () => 'hello world' }) },
    });
    expectTypeOf(mod.name).toEqualTypeOf<string>();
    expectTypeOf(mod.functions.echo).toEqualTypeOf(echo);
    expectTypeOf<ReturnType<typeof mod.functions.world.run>>().toEqualTypeOf<string | Promise<string>>();
  });

  it('defineModule checks the module shape', () => {
    // @ts-expect-error a module needs a name
    defineModule({ functions: {} });
    // @ts-expect-error virtual() must return true, { ok: false, reason } or { name }
    defineModule({ name: 'x', virtual: () => 'yes', functions: {} });
  });
});
