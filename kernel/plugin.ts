/** The plugin API: a plugin is `{ name, apply(api) }`; `api` is narrow and tap-only. */
import type { Logger } from 'pino';
import type { CommandDef } from './commands/define.js';
import type { OptionSet } from './config/option-set.js';
import type { KernelHooks, TapOnly } from './hooks.js';
import type { ReturnerDef } from './jobs/returner.js';
import type { KindRegistrar } from './kinds.js';
import type { DaemonProcessDef } from './process/daemon-process.js';
import type { TaskDef } from './process/task.js';
import type { Registry } from './registry.js';

/** Which daemon a kernel runs in. */
export type DaemonKind = 'master' | 'minion' | 'client';

/** What a plugin's `apply` receives. Never the kernel itself. */
export interface PluginApi {
  readonly daemon: DaemonKind;
  readonly hooks: TapOnly<KernelHooks>;
  readonly returners: Registry<ReturnerDef>;
  /** Request commands (master): what the request server answers, by the load's `cmd`. */
  readonly commands: Registry<CommandDef>;
  /** Processes the daemon runs, each in a child of its own under its ProcessManager. */
  readonly processes: Registry<DaemonProcessDef>;
  /** One-shot processes (master) a request command starts with `ctx.startTask`. */
  readonly tasks: Registry<TaskDef>;
  /** Units of the plugin kinds plugins declare for one another: REST routes, ... (kinds.ts). */
  readonly kinds: KindRegistrar;
  readonly config: Readonly<Record<string, unknown>>;
  readonly log: Logger;
  readonly kernelVersion: string;
}

/** A kernel plugin. */
export interface KernelPlugin {
  /** `tsalt:<name>` for built-ins, the npm package name otherwise. */
  name: string;
  /** Tier: `pre` plugins apply before built-ins, `post` after normal ones. */
  enforce?: 'pre' | 'post';
  /** Plugins that must be applied before this one. */
  dependencies?: readonly string[];
  /** The plugin's own options (`defineOptions`), checked before `apply`; read them with `options.read(api.config)`. */
  options?: OptionSet;
  /** Which daemons the plugin applies to (default: all). */
  daemons?: readonly DaemonKind[];
  apply(api: PluginApi): void | Promise<void>;
}

/** What `config.plugins` may hold: plugins, falsy entries and nested arrays (flattened). */
export type PluginOption = KernelPlugin | false | null | undefined | readonly PluginOption[];

/**
 * Types a plugin. A typing aid only.
 * @example
 * export const hello = definePlugin({
 *   name: 'tsalt-plugin-hello',
 *   apply(api) { api.hooks.jobPublished.tapPromise('tsalt-plugin-hello', async (job) => api.log.info({ jid: job.jid })); },
 * });
 */
export function definePlugin<P extends KernelPlugin>(plugin: P): P {
  return plugin;
}
