/**
 * The master's kernel in any of its processes (the main process, the request server and its
 * workers, plugin processes, runner processes): the built-in plugins its config asks for, the
 * config's own plugins, then the fallbacks.
 */
import type { Logger } from 'pino';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { createKernel, type Kernel } from '../kernel/kernel.js';
import type { KernelPlugin, PluginOption } from '../kernel/plugin.js';
import { masterBuiltins, masterFallbacks } from './builtins.js';
import { checkCommands } from './checked-commands.js';

/** `core`: plugins applied before the built-ins (the request server's job-path commands). */
export async function createMasterKernel(
  config: ResolvedMasterConfig,
  log: Logger,
  core: readonly KernelPlugin[] = [],
): Promise<Kernel> {
  const kernel = await createKernel({
    daemon: 'master',
    config: config as unknown as Readonly<Record<string, unknown>>,
    log,
    builtins: [...core, ...masterBuiltins(config)],
    plugins: (config.plugins ?? []) as readonly PluginOption[],
    fallbacks: masterFallbacks(),
  });
  checkCommands(kernel.commands);
  return kernel;
}
