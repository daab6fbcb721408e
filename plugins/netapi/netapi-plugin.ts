/**
 * The netapi plugin: adds the master's `netapi` process (netapi-process.ts), the REST API the
 * master starts when `rest_cherrypy` or `rest_tornado` is configured (`salt-api` runs the same
 * server on its own).
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { netapiMasterOptions } from './options.js';

export function netapiPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:netapi',
    options: netapiMasterOptions,
    daemons: ['master'],
    apply(api) {
      api.processes.register(
        defineDaemonProcess({
          name: 'netapi',
          // V8's default young generation: the REST API is measured by its throughput under many clients
          execArgv: [],
          start: async (ctx) => (await import('./netapi-process.js')).startNetapiProcess(ctx),
        }),
      );
    },
  });
}
