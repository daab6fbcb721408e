/**
 * The kernel of one daemon: hooks, registries and applied plugins. It only wires; features
 * live in plugins.
 */
import type { Logger } from 'pino';
import type { CommandDef } from './commands/define.js';
import type { ConfigWithExtra } from './config/option-set.js';
import {
  SALT_ERR_HOOK_FAILED,
  SALT_ERR_PLUGIN_DEPENDENCY,
  SALT_ERR_PLUGIN_DUPLICATE,
  SALT_ERR_REGISTRY_DAEMON,
  SaltError,
} from './errors.js';
import { createKernelHooks, type KernelHooks, type TapOnly } from './hooks.js';
import type { ReturnerDef } from './jobs/returner.js';
import { type ClosableKindRegistrar, createKindRegistrar } from './kinds.js';
import type { DaemonKind, KernelPlugin, PluginApi, PluginOption } from './plugin.js';
import type { DaemonProcessDef } from './process/daemon-process.js';
import type { TaskDef } from './process/task.js';
import { type ClosableRegistry, createRegistry } from './registry.js';
import { VERSION } from './version.js';

export interface Kernel {
  readonly daemon: DaemonKind;
  readonly hooks: KernelHooks;
  readonly returners: ClosableRegistry<ReturnerDef>;
  /** Request commands by `cmd` (the master's request server dispatches through it). */
  readonly commands: ClosableRegistry<CommandDef>;
  /** Processes plugins add to the daemon, by name (the daemon runs each in a child). */
  readonly processes: ClosableRegistry<DaemonProcessDef>;
  /** One-shot processes request commands start, by name (master). */
  readonly tasks: ClosableRegistry<TaskDef>;
  /** Units of the kinds plugins declare for one another (kinds.ts). */
  readonly kinds: ClosableKindRegistrar;
  readonly config: Readonly<Record<string, unknown>>;
  readonly log: Logger;
  /** Names of the applied plugins, in apply order. */
  readonly plugins: readonly string[];
  /** Runs the `shutdown` hook once. */
  shutdown(): Promise<void>;
}

export interface CreateKernelOptions {
  daemon: DaemonKind;
  config: Readonly<Record<string, unknown>>;
  log: Logger;
  /** Built-in plugins, applied between `pre` and normal user plugins. */
  builtins?: readonly KernelPlugin[];
  /** User plugins (config `plugins`). */
  plugins?: readonly PluginOption[];
  /**
   * Built-in plugins applied after every other one, to fill in what no plugin provided (the
   * answers a stock Salt minion expects for request commands no plugin registered).
   */
  fallbacks?: readonly KernelPlugin[];
}

function flatten(options: readonly PluginOption[] | undefined, out: KernelPlugin[] = []): KernelPlugin[] {
  for (const o of options ?? []) {
    if (!o) continue;
    if (Array.isArray(o)) flatten(o as readonly PluginOption[], out);
    else out.push(o as KernelPlugin);
  }
  return out;
}

/** Orders plugins: `pre` → built-ins → normal → `post`, keeping registration order in each tier. */
export function sortPlugins(
  builtins: readonly KernelPlugin[],
  user: readonly KernelPlugin[],
): KernelPlugin[] {
  return [
    ...user.filter((p) => p.enforce === 'pre'),
    ...builtins,
    ...user.filter((p) => !p.enforce),
    ...user.filter((p) => p.enforce === 'post'),
  ];
}

/**
 * Notification hooks: a failing tap is logged with the hook and plugin names and does not stop
 * the other taps or the caller (a broken returner must not lose a return or a publish).
 */
const ISOLATED_HOOKS: ReadonlySet<string> = new Set([
  'jobPublished',
  'returnReceived',
  'runnerReturned',
  'eventFired',
  'grainsLoaded',
  'jobReturned',
]);

/**
 * Wraps every tap so errors name the hook and the plugin (or, on notification hooks, are
 * logged and contained), and makes `shutdown` taps run in reverse registration order (a plugin
 * releases after the plugins it was applied after).
 */
function installTapWrapper(hooks: KernelHooks, log: Logger): void {
  let shutdownTaps = 0;
  for (const [hookName, hook] of Object.entries(hooks)) {
    const isolated = ISOLATED_HOOKS.has(hookName);
    hook.intercept({
      register(tap) {
        if (hookName === 'shutdown' && tap.stage === undefined) tap.stage = -++shutdownTaps;
        const fn = tap.fn as (...args: unknown[]) => unknown;
        const wrapped = (err: unknown): SaltError => {
          if (err instanceof SaltError) return err;
          const message = err instanceof Error ? err.message : String(err);
          return new SALT_ERR_HOOK_FAILED(hookName, tap.name, message, { cause: err });
        };
        const fail = (err: unknown): undefined => {
          const e = wrapped(err);
          if (!isolated) throw e;
          log.error({ hook: hookName, plugin: tap.name, code: e.code, err: e.message }, e.message);
          return undefined;
        };
        if (tap.type === 'promise') {
          tap.fn = (...args: unknown[]) => {
            try {
              return Promise.resolve(fn(...args)).catch(fail);
            } catch (err) {
              // a promise tap that throws synchronously must still settle the hook's promise
              return Promise.reject(err).catch(fail);
            }
          };
        } else if (tap.type === 'sync') {
          tap.fn = (...args: unknown[]) => {
            try {
              return fn(...args);
            } catch (err) {
              return fail(err);
            }
          };
        } else if (tap.type === 'async') {
          tap.fn = (...args: unknown[]) => {
            const callback = args.pop() as (err?: unknown, result?: unknown) => void;
            try {
              fn(...args, (err?: unknown, result?: unknown) => {
                if (err === undefined || err === null) callback(null, result);
                else {
                  try {
                    callback(null, fail(err));
                  } catch (e) {
                    callback(e);
                  }
                }
              });
            } catch (err) {
              try {
                callback(null, fail(err));
              } catch (e) {
                callback(e);
              }
            }
          };
        }
        return tap;
      },
    });
  }
}

/** A registry whose units only the master runs: elsewhere a registration is refused, not kept unused. */
function masterOnly<T>(registry: ClosableRegistry<T>, daemon: DaemonKind): ClosableRegistry<T> {
  if (daemon === 'master') return registry;
  return {
    ...registry,
    register(def) {
      const name = String((def as { name?: unknown; cmd?: unknown }).cmd ?? (def as { name?: unknown }).name);
      throw new SALT_ERR_REGISTRY_DAEMON(registry.kind, name, daemon);
    },
  };
}

/** Creates a kernel and applies its plugins in order. */
export async function createKernel(opts: CreateKernelOptions): Promise<Kernel> {
  const hooks = createKernelHooks();
  installTapWrapper(hooks, opts.log);
  const returners = createRegistry<ReturnerDef>('returner');
  const commands = masterOnly(
    createRegistry<CommandDef>('request command', (def) => def.cmd),
    opts.daemon,
  );
  const processes = masterOnly(createRegistry<DaemonProcessDef>('process'), opts.daemon);
  const tasks = masterOnly(createRegistry<TaskDef>('task'), opts.daemon);
  const kinds = createKindRegistrar();
  const ordered = [
    ...sortPlugins(opts.builtins ?? [], flatten(opts.plugins)),
    ...(opts.fallbacks ?? []),
  ].filter((p) => !p.daemons || p.daemons.includes(opts.daemon));
  const applied: string[] = [];
  for (const plugin of ordered) {
    if (applied.includes(plugin.name)) throw new SALT_ERR_PLUGIN_DUPLICATE(plugin.name);
    for (const dep of plugin.dependencies ?? []) {
      if (!applied.includes(dep)) throw new SALT_ERR_PLUGIN_DEPENDENCY(plugin.name, dep);
    }
    const api: PluginApi = {
      daemon: opts.daemon,
      hooks: hooks as TapOnly<KernelHooks>,
      returners,
      commands,
      processes,
      tasks,
      kinds,
      config: opts.config,
      log: opts.log.child({ plugin: plugin.name }),
      kernelVersion: VERSION,
    };
    // a plugin's own options are checked before it runs: a bad one stops the daemon with its name
    const own = plugin.options;
    if (own && opts.daemon !== 'client' && own.daemons.includes(opts.daemon) && 'extra' in opts.config) {
      own.read(opts.config as unknown as ConfigWithExtra);
    }
    try {
      await plugin.apply(api);
    } catch (err) {
      if (err instanceof SaltError) throw err;
      throw new SALT_ERR_HOOK_FAILED('apply', plugin.name, err instanceof Error ? err.message : String(err), {
        cause: err,
      });
    }
    applied.push(plugin.name);
  }
  returners.close();
  commands.close();
  processes.close();
  tasks.close();
  kinds.close();
  hooks.configResolved.call(opts.config);
  let stopped: Promise<void> | undefined;
  return {
    daemon: opts.daemon,
    hooks,
    returners,
    commands,
    processes,
    tasks,
    kinds,
    config: opts.config,
    log: opts.log,
    plugins: applied,
    shutdown() {
      stopped ??= hooks.shutdown.promise();
      return stopped;
    },
  };
}
