/**
 * The schedule plugin: adds the master's `schedule` process (master-schedule.ts), which the
 * options-apply step asks for when the master config has a `schedule:`.
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { scheduleOptions } from './options.js';

export function schedulePlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:schedule',
    options: scheduleOptions,
    daemons: ['master'],
    apply(api) {
      api.processes.register(
        defineDaemonProcess({
          name: 'schedule',
          start: async (ctx) => (await import('./master-schedule.js')).startMasterSchedule(ctx),
        }),
      );
    },
  });
}
