/**
 * The minion's kernel: the config's plugins applied for the `minion` daemon, whose hooks the
 * minion calls (`grainsLoaded`, `beforeJob`, `jobReturned`, `shutdown`). Its built-ins are the
 * http plugin (its options checked at start) and the renderers plugin (the `renderers` kind;
 * job processes run no plugins and render with the built-in renderers directly) and the sdb
 * plugin (the `sdb` kind).
 */
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { createKernel, type Kernel } from '../kernel/kernel.js';
import type { PluginOption } from '../kernel/plugin.js';
import { httpPlugin } from '../plugins/http/http-plugin.js';
import { renderersPlugin } from '../plugins/renderers/renderers-plugin.js';
import { sdbPlugin } from '../plugins/sdb/sdb-plugin.js';

export function createMinionKernel(config: ResolvedMinionConfig, log: Logger): Promise<Kernel> {
  return createKernel({
    daemon: 'minion',
    config: config as unknown as Readonly<Record<string, unknown>>,
    log,
    builtins: [renderersPlugin(), httpPlugin(), sdbPlugin()],
    plugins: (config.plugins ?? []) as readonly PluginOption[],
  });
}
