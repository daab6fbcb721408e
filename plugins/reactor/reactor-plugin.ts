/**
 * The reactor plugin: adds the master's `reactor` process (reactor-process.ts), which the
 * options-apply step asks for when `reactor:` or `reactions:` is configured.
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { reactorOptions } from './options.js';

export function reactorPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:reactor',
    options: reactorOptions,
    daemons: ['master'],
    apply(api) {
      api.processes.register(
        defineDaemonProcess({
          name: 'reactor',
          start: async (ctx) => (await import('./reactor-process.js')).startReactor(ctx),
        }),
      );
    },
  });
}
