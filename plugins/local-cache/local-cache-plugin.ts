/**
 * The local_cache plugin: registers the built-in `local_cache` returner (Salt's job cache
 * layout), through the same registry a third-party returner uses. The master stores loads and returns through the
 * returner named by `master_job_cache`.
 */
import { definePlugin, type KernelPlugin } from '../../kernel/index.js';
import localCache from '../../returners/local-cache.js';

export const PLUGIN_NAME = 'tsalt:local-cache';

export function localCachePlugin(): KernelPlugin {
  return definePlugin({
    name: PLUGIN_NAME,
    daemons: ['master'],
    apply(api) {
      api.returners.register(localCache);
    },
  });
}
