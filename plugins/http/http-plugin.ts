/**
 * The http plugin: no process or hook, only its options (options.ts), which the kernel checks
 * before `apply`, so a bad `http_*` or `proxy_*` value stops the master or minion at start with
 * `SALT_ERR_CONFIG_INVALID` naming the option, not at the first request.
 */
import { definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { httpOptions } from './options.js';

export function httpPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:http',
    options: httpOptions,
    daemons: ['master', 'minion'],
    apply() {},
  });
}
