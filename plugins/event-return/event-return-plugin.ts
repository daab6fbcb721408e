/**
 * The event-return plugin: adds the master's `event-return` process (event-return-process.ts),
 * which the options-apply step asks for when `event_return` names returners.
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { eventReturnOptions } from './options.js';

export function eventReturnPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:event-return',
    daemons: ['master'],
    options: eventReturnOptions,
    apply(api) {
      api.processes.register(
        defineDaemonProcess({
          name: 'event-return',
          start: async (ctx) => (await import('./event-return-process.js')).startEventReturn(ctx),
        }),
      );
    },
  });
}
