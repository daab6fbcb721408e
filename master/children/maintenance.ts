/**
 * The maintenance child (Salt's `Maintenance`): every `loop_interval` it removes jobs older
 * than `keep_jobs_seconds` and asks the master to rotate the AES key when a key was deleted or
 * rejected (the `.dfn` drop file) or `publish_session` has passed.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { EventListener, masterEventAddresses } from '../../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { runChild } from '../../kernel/daemon/child-runtime.js';
import { END_STATE_TAG } from '../../kernel/jobs/end-state.js';
import { masterReturnerLoader, openMasterJobCache } from '../../kernel/jobs/master-job-cache.js';
import { BUILTIN_RETURNERS } from '../../plugins/builtin-dirs.js';
import { readAesKey } from '../aes-key.js';

/** Path of Salt's AES rotation drop file. */
export function dropFilePath(cachedir: string): string {
  return join(cachedir, '.dfn');
}

await runChild<ResolvedMasterConfig>('maintenance', async ({ config, log }) => {
  // A job cache that cannot be opened is logged and retried at each tick; the rest goes on.
  const loader = masterReturnerLoader(config, log, BUILTIN_RETURNERS);
  let jobCache: Awaited<ReturnType<typeof openMasterJobCache>> | undefined;
  const openJobCache = async () => {
    if (!config.job_cache) return undefined;
    jobCache ??= await openMasterJobCache(config, loader).catch((err) => {
      log.error({ err: (err as Error).message }, `the job cache cannot be opened: ${(err as Error).message}`);
      return undefined;
    });
    return jobCache;
  };
  const tick = async (): Promise<void> => {
    const cache = await openJobCache();
    if (cache?.def.cleanOldJobs) {
      const removed = await cache.def.cleanOldJobs(config.keep_jobs_seconds, cache.ctx);
      if (removed > 0) log.info({ removed }, 'old jobs removed from the job cache');
    }
    const dfn = dropFilePath(config.cachedir);
    const dropped = await stat(dfn).then(
      () => true,
      () => false,
    );
    const aes = await readAesKey(config.cachedir).catch(() => undefined);
    const expired = aes !== undefined && Date.now() - aes.created > config.publish_session * 1000;
    if ((dropped && config.rotate_aes_key) || expired) {
      await rm(dfn, { force: true });
      process.send?.({ type: 'rotate-aes' });
    } else if (dropped) {
      await rm(dfn, { force: true });
    }
  };
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    tick()
      .catch((err) => log.error({ err }, 'maintenance tick failed'))
      .finally(() => {
        running = false;
      });
  }, Math.max(1, config.loop_interval) * 1000);
  void tick().catch((err) => log.error({ err }, 'maintenance tick failed'));

  // End states that clients report for minions that did not return go into the job cache.
  const ends = new EventListener(masterEventAddresses(config.sock_dir), [END_STATE_TAG]);
  const endsLoop = (async () => {
    for await (const ev of ends) {
      const { jid, id, state } = ev.data as { jid?: unknown; id?: unknown; state?: unknown };
      if (
        typeof jid !== 'string' ||
        typeof id !== 'string' ||
        (state !== 'not_connected' && state !== 'no_response' && state !== 'running')
      )
        continue;
      const cache = await openJobCache();
      if (!cache?.def.saveEndState) continue;
      await cache.def
        .saveEndState(jid, id, state, cache.ctx)
        .catch((err) => log.warn({ err, jid, id }, 'end state not stored'));
    }
  })().catch((err) => log.error({ err }, 'end-state listener failed'));
  return async () => {
    clearInterval(timer);
    ends.close();
    await endsLoop;
    if (jobCache?.def.close) await jobCache.def.close(jobCache.ctx).catch(() => undefined);
  };
});
