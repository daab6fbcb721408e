/**
 * The master job cache plugin: registers the built-in `local_cache` returner and stores every
 * verified return through the returner named by `master_job_cache`, at `STAGE_JOB_CACHE`.
 */
import { definePlugin, type KernelPlugin } from '../../kernel/plugin.js';
import { STAGE_JOB_CACHE } from '../../kernel/stages.js';
import localCache from '../../returners/local-cache.js';

export const PLUGIN_NAME = 'tsalt:job-cache';

export function jobCachePlugin(): KernelPlugin {
  return definePlugin({
    name: PLUGIN_NAME,
    daemons: ['master'],
    apply(api) {
      api.returners.register(localCache);
      const name = String(api.config.master_job_cache ?? 'local_cache');
      const enabled = api.config.job_cache !== false;
      api.hooks.returnReceived.tapPromise({ name: PLUGIN_NAME, stage: STAGE_JOB_CACHE }, async (ret) => {
        if (!enabled) return;
        const cache = api.returners.get(name);
        if (!cache) {
          api.log.warn({ master_job_cache: name }, 'master_job_cache names no registered returner');
          return;
        }
        await cache.returner(ret, { opts: api.config, log: api.log });
      });
    },
  });
}
