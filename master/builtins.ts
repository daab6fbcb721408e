/**
 * The master's options-apply step (webpack's `WebpackOptionsApply`): the master config turned
 * into the list of built-in plugins. Every feature past the kernel's job path comes from here,
 * through the same plugin API a third party uses; the daemon starts nothing by name.
 */
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { KernelPlugin } from '../kernel/plugin.js';
import { clusterPlugin } from '../plugins/cluster/index.js';
import { clusterOptions } from '../plugins/cluster/options.js';
import { commandFallbacksPlugin } from '../plugins/command-fallbacks/index.js';
import { consoleEnabled, consolePlugin } from '../plugins/console/index.js';
import { eventReturnPlugin } from '../plugins/event-return/index.js';
import { eventReturnOptions } from '../plugins/event-return/options.js';
import { fileServerPlugin } from '../plugins/file-server/index.js';
import { httpPlugin } from '../plugins/http/http-plugin.js';
import { localCachePlugin } from '../plugins/local-cache/index.js';
import { minePlugin } from '../plugins/mine/index.js';
import { netapiConfigured } from '../plugins/netapi/config.js';
import { netapiPlugin } from '../plugins/netapi/index.js';
import { netapiMasterOptions } from '../plugins/netapi/options.js';
import { peerPlugin } from '../plugins/peer/index.js';
import { pillarPlugin } from '../plugins/pillar/index.js';
import { reactorPlugin } from '../plugins/reactor/index.js';
import { reactorOptions } from '../plugins/reactor/options.js';
import { renderersPlugin } from '../plugins/renderers/index.js';
import { runnersPlugin } from '../plugins/runners/index.js';
import { schedulePlugin } from '../plugins/schedule/index.js';
import { sdbPlugin } from '../plugins/sdb/index.js';
import { wheelPlugin } from '../plugins/wheel/index.js';
// declares the built-in returners' `postgres:`/`redis:` blocks before the config is read
import '../returners/option-blocks.js';

/** The built-in plugins `config` asks for, in apply order. */
export function masterBuiltins(config: ResolvedMasterConfig): KernelPlugin[] {
  const plugins = [
    localCachePlugin(),
    renderersPlugin(),
    fileServerPlugin(),
    pillarPlugin(),
    minePlugin(),
    peerPlugin(),
    runnersPlugin(),
    wheelPlugin(),
    httpPlugin(),
    sdbPlugin(),
  ];
  // Salt's EventReturn process, only when event_return names returners
  if (eventReturnOptions.read(config).event_return.length > 0) plugins.push(eventReturnPlugin());
  // Salt's Reactor process, only when reactor files or TypeScript reactions are configured
  const reactor = reactorOptions.read(config);
  if (reactor.reactor.length > 0 || reactor.reactions.length > 0) plugins.push(reactorPlugin());
  // salt-api started with the master, only when a REST API block is configured
  const api = netapiMasterOptions.read(config);
  if (netapiConfigured(api)) {
    plugins.push(netapiPlugin());
    // the web console on the REST API's port, unless its block says `console: False`
    if (consoleEnabled(api)) plugins.push(consolePlugin());
  }
  // Salt's master scheduler, only when the master config has scheduled jobs
  if (Object.keys(config.schedule ?? {}).length > 0) plugins.push(schedulePlugin());
  // Salt 3007's master cluster, only when the master names its cluster
  if (clusterOptions.read(config).cluster_id) plugins.push(clusterPlugin());
  return plugins;
}

/** Applied after every other plugin: what fills in for subsystems no plugin provided. */
export function masterFallbacks(): KernelPlugin[] {
  return [commandFallbacksPlugin()];
}
