import { describe, expect, it } from 'vitest';
import { type CommandContext, defineCommand } from './commands/define.js';
import {
  SALT_ERR_HOOK_FAILED,
  SALT_ERR_PLUGIN_DEPENDENCY,
  SALT_ERR_PLUGIN_DUPLICATE,
  SALT_ERR_REGISTRY_CLOSED,
  SALT_ERR_REGISTRY_DUPLICATE,
  SaltError,
} from './errors.js';
import type { ReturnerDef } from './jobs/returner.js';
import type { JobReturn, PublishLoad } from './jobs/types.js';
import { type CreateKernelOptions, createKernel, sortPlugins } from './kernel.js';
import { silentLogger } from './log.js';
import { definePlugin, type KernelPlugin, type PluginApi, type PluginOption } from './plugin.js';
import { STAGE_EARLY, STAGE_RETURNERS } from './stages.js';
import { VERSION } from './version.js';

const CONFIG: Readonly<Record<string, unknown>> = Object.freeze({ id: 'test-master', job_cache: true });

function kernel(opts: Partial<CreateKernelOptions> = {}) {
  return createKernel({ daemon: 'master', config: CONFIG, log: silentLogger(), ...opts });
}

/** A plugin whose `apply` appends its name to `trace`, then runs `body`. */
function plugin(
  name: string,
  trace: string[],
  extra: Partial<Omit<KernelPlugin, 'name' | 'apply'>> = {},
  body?: (api: PluginApi) => void | Promise<void>,
): KernelPlugin {
  return {
    name,
    ...extra,
    async apply(api) {
      trace.push(name);
      await body?.(api);
    },
  };
}

/** Awaits `p` and returns what it rejected with (fails if it resolved). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

function caught(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected a throw');
}

function load(extra: Partial<PublishLoad> = {}): PublishLoad {
  return {
    fun: 'test.ping',
    arg: [],
    tgt: '*',
    jid: '20240101000000000000',
    ret: '',
    tgt_type: 'glob',
    user: 'root',
    ...extra,
  };
}

function ret(extra: Partial<JobReturn> = {}): JobReturn {
  return {
    id: 'm1',
    jid: '20240101000000000000',
    fun: 'test.ping',
    fun_args: [],
    return: true,
    retcode: 0,
    success: true,
    ...extra,
  };
}

function returner(name: string): ReturnerDef {
  return { name, async returner() {} };
}

describe('createKernel: apply order', () => {
  it('applies pre → built-ins → normal → post, keeping registration order in each tier', async () => {
    const trace: string[] = [];
    const k = await kernel({
      builtins: [plugin('tsalt:b1', trace), plugin('tsalt:b2', trace)],
      plugins: [
        plugin('n1', trace),
        plugin('post1', trace, { enforce: 'post' }),
        plugin('pre1', trace, { enforce: 'pre' }),
        plugin('n2', trace),
        plugin('pre2', trace, { enforce: 'pre' }),
        plugin('post2', trace, { enforce: 'post' }),
      ],
    });
    const expected = ['pre1', 'pre2', 'tsalt:b1', 'tsalt:b2', 'n1', 'n2', 'post1', 'post2'];
    expect(trace).toEqual(expected);
    expect(k.plugins).toEqual(expected);
  });

  it('sortPlugins places built-ins between pre and normal plugins whatever their own enforce', () => {
    const t: string[] = [];
    const sorted = sortPlugins(
      [plugin('tsalt:b', t, { enforce: 'post' })],
      [plugin('post', t, { enforce: 'post' }), plugin('n', t), plugin('pre', t, { enforce: 'pre' })],
    );
    expect(sorted.map((p) => p.name)).toEqual(['pre', 'tsalt:b', 'n', 'post']);
  });

  it('flattens nested arrays and skips falsy entries in plugins', async () => {
    const trace: string[] = [];
    const options: PluginOption[] = [
      false,
      null,
      plugin('a', trace),
      undefined,
      [plugin('b', trace), [false, plugin('c', trace), [[plugin('d', trace)]]], null],
      [],
      plugin('e', trace),
    ];
    const k = await kernel({ plugins: options });
    expect(trace).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(k.plugins).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('works with no plugins at all', async () => {
    const k = await kernel();
    expect(k.plugins).toEqual([]);
    expect(k.daemon).toBe('master');
    expect(k.config).toBe(CONFIG);
  });

  it('gives each plugin a narrow api: daemon, config, kernel version, child logger', async () => {
    let seen: PluginApi | undefined;
    await kernel({
      daemon: 'minion',
      plugins: [
        plugin('acme-probe', [], {}, (api) => {
          seen = api;
        }),
      ],
    });
    expect(seen?.daemon).toBe('minion');
    expect(seen?.config).toBe(CONFIG);
    expect(seen?.kernelVersion).toBe(VERSION);
    expect(seen?.log.bindings()).toMatchObject({ plugin: 'acme-probe' });
    // Never the kernel itself: no shutdown(), no list of plugins.
    expect(seen).not.toHaveProperty('shutdown');
    expect(seen).not.toHaveProperty('plugins');
  });

  it('awaits an async apply before applying the next plugin', async () => {
    const trace: string[] = [];
    await kernel({
      plugins: [
        plugin('slow', trace, {}, async () => {
          await new Promise((r) => setTimeout(r, 20));
          trace.push('slow:done');
        }),
        plugin('next', trace),
      ],
    });
    expect(trace).toEqual(['slow', 'slow:done', 'next']);
  });
});

describe('createKernel: plugin checks', () => {
  it('rejects a plugin name applied twice with SALT_ERR_PLUGIN_DUPLICATE', async () => {
    const trace: string[] = [];
    const err = await rejection(
      kernel({ plugins: [plugin('dup', trace), plugin('other', trace), plugin('dup', trace)] }),
    );
    expect(err).toBeInstanceOf(SALT_ERR_PLUGIN_DUPLICATE);
    expect((err as SaltError).code).toBe('SALT_ERR_PLUGIN_DUPLICATE');
    expect((err as SaltError).message).toContain('"dup"');
    // The duplicate is detected before it is applied a second time.
    expect(trace).toEqual(['dup', 'other']);
  });

  it('rejects a user plugin that reuses a built-in name', async () => {
    const err = await rejection(
      kernel({ builtins: [plugin('tsalt:x', [])], plugins: [plugin('tsalt:x', [])] }),
    );
    expect((err as SaltError).code).toBe('SALT_ERR_PLUGIN_DUPLICATE');
  });

  it('rejects a missing dependency with SALT_ERR_PLUGIN_DEPENDENCY naming both plugins', async () => {
    const trace: string[] = [];
    const err = await rejection(
      kernel({ plugins: [plugin('needy', trace, { dependencies: ['acme-base'] })] }),
    );
    expect(err).toBeInstanceOf(SALT_ERR_PLUGIN_DEPENDENCY);
    expect((err as SaltError).code).toBe('SALT_ERR_PLUGIN_DEPENDENCY');
    expect((err as SaltError).message).toContain('"needy"');
    expect((err as SaltError).message).toContain('"acme-base"');
    expect(trace).toEqual([]);
  });

  it('rejects a dependency that is applied only after the dependent plugin', async () => {
    const err = await rejection(
      kernel({ plugins: [plugin('needy', [], { dependencies: ['base'] }), plugin('base', [])] }),
    );
    expect((err as SaltError).code).toBe('SALT_ERR_PLUGIN_DEPENDENCY');
  });

  it('accepts dependencies applied earlier, including built-ins and pre plugins', async () => {
    const trace: string[] = [];
    const k = await kernel({
      builtins: [plugin('tsalt:core', trace)],
      plugins: [
        plugin('needy', trace, { dependencies: ['tsalt:core', 'early'] }),
        plugin('early', trace, { enforce: 'pre' }),
      ],
    });
    expect(k.plugins).toEqual(['early', 'tsalt:core', 'needy']);
  });

  it('applies a plugin only in the daemons it lists', async () => {
    const trace: string[] = [];
    const plugins = [
      plugin('everywhere', trace),
      plugin('master-only', trace, { daemons: ['master'] }),
      plugin('minion-only', trace, { daemons: ['minion'] }),
      plugin('both', trace, { daemons: ['minion', 'master'] }),
      plugin('nowhere', trace, { daemons: [] }),
    ];
    expect((await kernel({ daemon: 'master', plugins })).plugins).toEqual([
      'everywhere',
      'master-only',
      'both',
    ]);
    expect((await kernel({ daemon: 'minion', plugins })).plugins).toEqual([
      'everywhere',
      'minion-only',
      'both',
    ]);
    expect((await kernel({ daemon: 'client', plugins })).plugins).toEqual(['everywhere']);
    expect(trace).not.toContain('nowhere');
  });

  it('refuses a request command or a process registered in a minion: only the master runs them', async () => {
    const plugin = (what: 'commands' | 'processes') =>
      definePlugin({
        name: `registers-${what}`,
        apply(api) {
          if (what === 'commands') api.commands.register({ cmd: '_x', enc: 'aes', handle: () => ({}) });
          else api.processes.register({ name: 'x', start: async () => async () => undefined });
        },
      });
    for (const what of ['commands', 'processes'] as const) {
      await expect(kernel({ daemon: 'minion', plugins: [plugin(what)] })).rejects.toMatchObject({
        code: 'SALT_ERR_REGISTRY_DAEMON',
      });
      await expect(kernel({ daemon: 'master', plugins: [plugin(what)] })).resolves.toBeDefined();
    }
  });

  it('does not count a plugin filtered out by daemons as applied for dependencies or duplicates', async () => {
    const err = await rejection(
      kernel({
        daemon: 'minion',
        plugins: [
          plugin('base', [], { daemons: ['master'] }),
          plugin('needy', [], { dependencies: ['base'] }),
        ],
      }),
    );
    expect((err as SaltError).code).toBe('SALT_ERR_PLUGIN_DEPENDENCY');
    const k = await kernel({
      daemon: 'minion',
      plugins: [plugin('same', [], { daemons: ['master'] }), plugin('same', [], { daemons: ['minion'] })],
    });
    expect(k.plugins).toEqual(['same']);
  });

  it('wraps an error thrown by apply as SALT_ERR_HOOK_FAILED for hook "apply"', async () => {
    const boom = new TypeError('apply exploded');
    const err = await rejection(
      kernel({
        plugins: [
          plugin('acme-bad', [], {}, () => {
            throw boom;
          }),
        ],
      }),
    );
    expect(err).toBeInstanceOf(SALT_ERR_HOOK_FAILED);
    expect((err as SaltError).message).toBe('hook "apply" failed in plugin "acme-bad": apply exploded');
    expect((err as SaltError).cause).toBe(boom);
  });

  it('passes a SaltError thrown by apply through unwrapped', async () => {
    const own = new SaltError('ACME_ERR_SETUP', 'no license');
    const err = await rejection(
      kernel({
        plugins: [
          plugin('acme', [], {}, async () => {
            throw own;
          }),
        ],
      }),
    );
    expect(err).toBe(own);
  });
});

describe('createKernel: errors in taps', () => {
  it('contains a throwing sync tap on a notification hook: later taps still run', async () => {
    const trace: string[] = [];
    const k = await kernel({
      plugins: [
        plugin('acme-events', [], {}, (api) => {
          api.hooks.eventFired.tap('acme-events', () => {
            throw new Error('event tap exploded');
          });
          api.hooks.eventFired.tap('acme-after', () => {
            trace.push('after');
          });
        }),
      ],
    });
    expect(() => k.hooks.eventFired.call({ tag: 'salt/test', data: {} })).not.toThrow();
    expect(trace).toEqual(['after']);
  });

  it('wraps a rejection of a tapPromise tap as SALT_ERR_HOOK_FAILED', async () => {
    const boom = new RangeError('publish refused');
    const k = await kernel({
      plugins: [
        plugin('acme-gate', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme-gate', async () => {
            throw boom;
          });
        }),
      ],
    });
    const err = await rejection(k.hooks.beforePublish.promise(load()));
    expect(err).toBeInstanceOf(SALT_ERR_HOOK_FAILED);
    expect((err as SaltError).message).toBe(
      'hook "beforePublish" failed in plugin "acme-gate": publish refused',
    );
    expect((err as SaltError).cause).toBe(boom);
  });

  it('wraps a sync throw from the first tapPromise function', async () => {
    const boom = new Error('sync in promise tap');
    const k = await kernel({
      plugins: [
        plugin('acme-sync', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme-sync', () => {
            throw boom;
          });
        }),
      ],
    });
    const err = await rejection(k.hooks.beforePublish.promise(load()));
    expect((err as SaltError).code).toBe('SALT_ERR_HOOK_FAILED');
    expect((err as SaltError).cause).toBe(boom);
  });

  it('wraps a non-Error value thrown by a tap and keeps it as the cause', async () => {
    const k = await kernel({
      plugins: [
        plugin('acme-str', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme-str', () => Promise.reject('plain string'));
        }),
      ],
    });
    const err = await rejection(k.hooks.beforePublish.promise(load()));
    expect((err as SaltError).message).toBe('hook "beforePublish" failed in plugin "acme-str": plain string');
    expect((err as SaltError).cause).toBe('plain string');
  });

  it('wraps an error of a sync tap on configResolved while the kernel is created', async () => {
    const boom = new Error('bad config for me');
    const err = await rejection(
      kernel({
        plugins: [
          plugin('acme-cfg', [], {}, (api) => {
            api.hooks.configResolved.tap('acme-cfg', () => {
              throw boom;
            });
          }),
        ],
      }),
    );
    expect((err as SaltError).code).toBe('SALT_ERR_HOOK_FAILED');
    expect((err as SaltError).message).toContain('"configResolved"');
    expect((err as SaltError).message).toContain('"acme-cfg"');
    expect((err as SaltError).cause).toBe(boom);
  });

  it('passes a SaltError thrown in a tap through unwrapped (sync and promise taps)', async () => {
    const syncErr = new SaltError('ACME_ERR_EVENT', 'nope');
    const asyncErr = new SaltError('ACME_ERR_GATE', 'denied');
    const k = await kernel({
      plugins: [
        plugin('acme', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme', async () => {
            throw asyncErr;
          });
        }),
      ],
    });
    expect(await rejection(k.hooks.beforePublish.promise(load()))).toBe(asyncErr);
    const failing = kernel({
      plugins: [
        plugin('acme-sync', [], {}, (api) => {
          api.hooks.configResolved.tap('acme-sync', () => {
            throw syncErr;
          });
        }),
      ],
    });
    expect(await rejection(failing)).toBe(syncErr);
  });

  it('names the plugin that failed when several tap the same hook', async () => {
    const trace: string[] = [];
    const k = await kernel({
      plugins: [
        plugin('first', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('first', async (l) => {
            trace.push('first');
            return l;
          });
        }),
        plugin('second', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('second', async () => {
            throw new Error('disk full');
          });
        }),
        plugin('third', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('third', async (l) => {
            trace.push('third');
            return l;
          });
        }),
      ],
    });
    const err = await rejection(k.hooks.beforePublish.promise(load()));
    expect((err as SaltError).message).toBe('hook "beforePublish" failed in plugin "second": disk full');
    // a waterfall stops at the first error
    expect(trace).toEqual(['first']);
  });

  // returnReceived is a notification hook: a failing returner is logged and the others still run.
  it('keeps running later returnReceived taps after one fails', async () => {
    const stored: string[] = [];
    const k = await kernel({
      plugins: [
        plugin('tsalt:job-cache-like', [], {}, (api) => {
          api.hooks.returnReceived.tapPromise(
            { name: 'tsalt:job-cache-like', stage: STAGE_EARLY },
            async () => {
              throw new Error('disk full');
            },
          );
        }),
        plugin('acme-returner', [], {}, (api) => {
          api.hooks.returnReceived.tapPromise(
            { name: 'acme-returner', stage: STAGE_RETURNERS },
            async (r) => {
              stored.push(r.id);
            },
          );
        }),
      ],
    });
    await k.hooks.returnReceived.promise(ret());
    expect(stored).toEqual(['m1']);
  });

  // A later promise tap is called from inside tapable's `.then`: a synchronous throw there must
  // still settle the hook's promise.
  it('rejects (does not hang) when a later tapPromise function throws synchronously', async () => {
    const boom = new Error('sync throw in second tap');
    const k = await kernel({
      plugins: [
        plugin('acme-ok', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme-ok', async (l) => l);
        }),
        plugin('acme-sync', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('acme-sync', () => {
            throw boom;
          });
        }),
      ],
    });
    const outcome = await Promise.race([
      k.hooks.beforePublish.promise(load()).then(
        () => 'resolved',
        (err: unknown) => err,
      ),
      new Promise((r) => setTimeout(() => r('hung'), 500)),
    ]);
    expect(outcome).not.toBe('hung');
    expect((outcome as SaltError).code).toBe('SALT_ERR_HOOK_FAILED');
    expect((outcome as SaltError).cause).toBe(boom);
  });

  // Plugins cannot see tapAsync (TapOnly omits it), but the kernel's own hooks object can.
  it('wraps an error reported by a tapAsync callback as SALT_ERR_HOOK_FAILED', async () => {
    const boom = new Error('callback error');
    const k = await kernel({});
    k.hooks.beforePublish.tapAsync('acme-cb', (_load, done) => done(boom));
    const err = await rejection(k.hooks.beforePublish.promise(load()));
    expect((err as SaltError).code).toBe('SALT_ERR_HOOK_FAILED');
  });
});

describe('createKernel: hooks', () => {
  it('calls configResolved once, with the config, after every plugin is applied', async () => {
    const trace: string[] = [];
    const calls: unknown[] = [];
    await kernel({
      plugins: [
        plugin('watcher', trace, {}, (api) => {
          api.hooks.configResolved.tap('watcher', (config) => {
            calls.push(config);
            trace.push('configResolved');
          });
        }),
        plugin('later', trace),
      ],
    });
    expect(calls).toEqual([CONFIG]);
    expect(calls[0]).toBe(CONFIG);
    expect(trace).toEqual(['watcher', 'later', 'configResolved']);
  });

  it('lets beforePublish taps change the load in series (waterfall)', async () => {
    const k = await kernel({
      plugins: [
        plugin('add-metadata', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('add-metadata', async (l) => ({
            ...l,
            metadata: { by: 'acme' },
          }));
        }),
        plugin('keep', [], {}, (api) => {
          // A sync tap on an async waterfall works too; returning undefined keeps the load.
          api.hooks.beforePublish.tap('keep', () => undefined as unknown as PublishLoad);
        }),
        plugin('rename-user', [], {}, (api) => {
          api.hooks.beforePublish.tapPromise('rename-user', async (l) => {
            expect(l.metadata).toEqual({ by: 'acme' });
            return { ...l, user: 'sudo_alice' };
          });
        }),
      ],
    });
    const original = load();
    const out = await k.hooks.beforePublish.promise(original);
    expect(out).toEqual({ ...original, metadata: { by: 'acme' }, user: 'sudo_alice' });
    expect(original.user).toBe('root');
  });

  it('returns the load unchanged when nothing taps beforePublish', async () => {
    const k = await kernel();
    const l = load();
    expect(await k.hooks.beforePublish.promise(l)).toBe(l);
  });

  it('orders taps of one hook by stage, then by apply order', async () => {
    const trace: string[] = [];
    const k = await kernel({
      plugins: [
        plugin('default', [], {}, (api) => {
          api.hooks.eventFired.tap('default', () => {
            trace.push('default');
          });
        }),
        plugin('early', [], {}, (api) => {
          api.hooks.eventFired.tap({ name: 'early', stage: STAGE_EARLY }, () => {
            trace.push('early');
          });
        }),
        plugin('default2', [], {}, (api) => {
          api.hooks.eventFired.tap('default2', () => {
            trace.push('default2');
          });
        }),
      ],
    });
    k.hooks.eventFired.call({ tag: 't', data: {} });
    expect(trace).toEqual(['early', 'default', 'default2']);
  });

  it('runs shutdown taps in reverse registration order', async () => {
    const trace: string[] = [];
    const tapShutdown = (name: string): KernelPlugin =>
      plugin(name, [], {}, (api) => {
        api.hooks.shutdown.tapPromise(name, async () => {
          trace.push(name);
        });
      });
    const k = await kernel({
      builtins: [tapShutdown('tsalt:core')],
      plugins: [tapShutdown('b'), tapShutdown('pre'), tapShutdown('c')].map((p) =>
        p.name === 'pre' ? { ...p, enforce: 'pre' as const } : p,
      ),
    });
    expect(k.plugins).toEqual(['pre', 'tsalt:core', 'b', 'c']);
    await k.shutdown();
    expect(trace).toEqual(['c', 'b', 'tsalt:core', 'pre']);
  });

  it('reverses sync and promise shutdown taps of one plugin too', async () => {
    const trace: string[] = [];
    const k = await kernel({
      plugins: [
        plugin('acme', [], {}, (api) => {
          api.hooks.shutdown.tap('acme', () => {
            trace.push('opened first');
          });
          api.hooks.shutdown.tapPromise('acme', async () => {
            trace.push('opened second');
          });
        }),
      ],
    });
    await k.shutdown();
    expect(trace).toEqual(['opened second', 'opened first']);
  });

  it('runs the shutdown hook once even if shutdown() is called twice', async () => {
    let runs = 0;
    const k = await kernel({
      plugins: [
        plugin('counter', [], {}, (api) => {
          api.hooks.shutdown.tapPromise('counter', async () => {
            await new Promise((r) => setTimeout(r, 10));
            runs++;
          });
        }),
      ],
    });
    const first = k.shutdown();
    const second = k.shutdown();
    await Promise.all([first, second]);
    await k.shutdown();
    expect(runs).toBe(1);
  });

  it('wraps a failing shutdown tap and reports the same failure to every shutdown() caller', async () => {
    const k = await kernel({
      plugins: [
        plugin('acme-close', [], {}, (api) => {
          api.hooks.shutdown.tapPromise('acme-close', async () => {
            throw new Error('socket already closed');
          });
        }),
      ],
    });
    const a = await rejection(k.shutdown());
    const b = await rejection(k.shutdown());
    expect((a as SaltError).message).toBe(
      'hook "shutdown" failed in plugin "acme-close": socket already closed',
    );
    expect(b).toBe(a);
  });
});

describe('createKernel: returners registry', () => {
  it('holds the returners plugins register', async () => {
    const k = await kernel({
      plugins: [
        plugin('acme-returners', [], {}, (api) => {
          api.returners.register(returner('redis'));
          api.returners.register(returner('mysql'));
        }),
      ],
    });
    expect(k.returners.names()).toEqual(['mysql', 'redis']);
    expect(k.returners.get('redis')?.name).toBe('redis');
    expect(k.returners.has('nope')).toBe(false);
  });

  it('rejects a duplicate returner name with SALT_ERR_REGISTRY_DUPLICATE (unwrapped)', async () => {
    const err = await rejection(
      kernel({
        plugins: [
          plugin('one', [], {}, (api) => api.returners.register(returner('local_cache'))),
          plugin('two', [], {}, (api) => api.returners.register(returner('local_cache'))),
        ],
      }),
    );
    expect(err).toBeInstanceOf(SALT_ERR_REGISTRY_DUPLICATE);
    expect((err as SaltError).code).toBe('SALT_ERR_REGISTRY_DUPLICATE');
    expect((err as SaltError).message).toBe('returner "local_cache" is already registered');
  });

  it('rejects registering after the kernel is created with SALT_ERR_REGISTRY_CLOSED', async () => {
    let saved: PluginApi | undefined;
    const k = await kernel({
      plugins: [
        plugin('late', [], {}, (api) => {
          saved = api;
        }),
      ],
    });
    const fromKernel = caught(() => k.returners.register(returner('late_one')));
    expect(fromKernel).toBeInstanceOf(SALT_ERR_REGISTRY_CLOSED);
    expect((fromKernel as SaltError).message).toBe(
      'cannot register returner "late_one" after the daemon is ready',
    );
    const fromPlugin = caught(() => saved?.returners.register(returner('late_two')));
    expect((fromPlugin as SaltError).code).toBe('SALT_ERR_REGISTRY_CLOSED');
    expect(k.returners.names()).toEqual([]);
  });

  it('is already closed when configResolved fires', async () => {
    const err = await rejection(
      kernel({
        plugins: [
          plugin('cfg', [], {}, (api) => {
            api.hooks.configResolved.tap('cfg', () => api.returners.register(returner('too_late')));
          }),
        ],
      }),
    );
    // A SaltError from a tap is not wrapped.
    expect((err as SaltError).code).toBe('SALT_ERR_REGISTRY_CLOSED');
  });
});

describe('createKernel: request commands registry', () => {
  const command = (cmd: string, answer: unknown) => defineCommand({ cmd, enc: 'aes', handle: () => answer });

  it('holds commands by cmd, refuses a second one for the same cmd, and refuses late ones', async () => {
    let api: PluginApi | undefined;
    const k = await kernel({
      plugins: [
        plugin('a', [], {}, (a) => {
          api = a;
          a.commands.register(command('_acme', 1));
        }),
      ],
    });
    expect(k.commands.get('_acme')?.handle({}, {} as CommandContext)).toBe(1);
    const dup = await kernel({
      plugins: [
        plugin('a', [], {}, (a) => a.commands.register(command('_x', 1))),
        plugin('b', [], {}, (a) => a.commands.register(command('_x', 2))),
      ],
    }).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(SALT_ERR_REGISTRY_DUPLICATE);
    expect(() => api?.commands.register(command('_late', 0))).toThrow(SALT_ERR_REGISTRY_CLOSED);
  });

  it('applies fallbacks after every plugin, post ones included, so they see what plugins took', async () => {
    const trace: string[] = [];
    const fallback = plugin('tsalt:fallback', trace, {}, (a) => {
      for (const cmd of ['_mine_get', '_mine'])
        if (!a.commands.has(cmd)) a.commands.register(command(cmd, 'fallback'));
    });
    const k = await kernel({
      builtins: [plugin('tsalt:b', trace)],
      fallbacks: [fallback],
      plugins: [
        plugin('late', trace, { enforce: 'post' }, (a) => a.commands.register(command('_mine_get', 'mine'))),
      ],
    });
    expect(trace).toEqual(['tsalt:b', 'late', 'tsalt:fallback']);
    expect(k.commands.get('_mine_get')?.handle({}, {} as CommandContext)).toBe('mine');
    expect(k.commands.get('_mine')?.handle({}, {} as CommandContext)).toBe('fallback');
  });
});
