/**
 * The netapi plugin: adds the master's `netapi` process (netapi-process.ts), the REST API the
 * master starts when `rest_cherrypy` or `rest_tornado` is configured (`salt-api` runs the same
 * server on its own).
 */
import { defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { BUILTIN_EAUTH } from './auth/builtin-eauth.js';
import { netapiMasterOptions } from './options.js';

export function netapiPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:netapi',
    options: netapiMasterOptions,
    daemons: ['master'],
    apply(api) {
      // the eauth back ends it brings, in the same kind a plugin adds one to
      for (const backend of BUILTIN_EAUTH) api.kinds.register('netapi.eauth', backend);
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
