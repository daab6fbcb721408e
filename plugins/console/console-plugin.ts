/**
 * The web console plugin: the REST API's `/console` pages (routes.ts), added to the netapi
 * through its `netapi.routes` kind. master/builtins.ts applies it when the REST API is
 * configured and its block does not say `console: False`.
 */
import { definePlugin, type KernelPlugin } from '../../kernel/index.js';
import type {} from '../netapi/index.js';
import { consoleRoutes } from './routes.js';

export function consolePlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:console',
    daemons: ['master'],
    apply(api) {
      api.kinds.register('netapi.routes', consoleRoutes());
    },
  });
}
