/**
 * Salt's `Maintenance` process, run inside the request server's process, which already holds
 * the job cache it works on: every `loop_interval` it removes jobs older than
 * `keep_jobs_seconds` and asks the master to rotate the AES key when a key was deleted or
 * rejected (the `.dfn` drop file) or `publish_session` has passed; it stores the end states
 * clients report for minions that did not return.
 *
 * A process of its own cost the master ~18-20 MiB of PSS for a timer and one listener. Here, a
 * tick that throws is logged and the next one runs; the job cache is the request server's own
 * (the same returner code it runs for every return), so hosting this adds no code that could
 * take that process down, and the master's parent (the supervisor) loads none of it.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { EventListener, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { END_STATE_TAG } from '../kernel/jobs/end-state.js';
import type { MasterJobCache } from '../kernel/jobs/master-job-cache.js';
import { readAesKey } from './aes-key.js';

/** Path of Salt's AES rotation drop file. */
export function dropFilePath(cachedir: string): string {
  return join(cachedir, '.dfn');
}

export interface MaintenanceOptions {
  config: ResolvedMasterConfig;
  log: Logger;
  /** The job cache (undefined with `job_cache: False`: nothing to clean or store). */
  jobCache: MasterJobCache | undefined;
  /** Asks the master (the parent process) to rotate the AES key. */
  askRotation: () => void;
}

/** Starts the ticks and the end-state listener; resolves the returned stop once both ended. */
export function startMaintenance(o: MaintenanceOptions): () => Promise<void> {
  const { config, log, jobCache } = o;
  const tick = async (): Promise<void> => {
    if (jobCache?.def.cleanOldJobs) {
      const removed = await jobCache.def.cleanOldJobs(config.keep_jobs_seconds, jobCache.ctx);
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
      o.askRotation();
    } else if (dropped) {
      await rm(dfn, { force: true });
    }
  };
  let running = false;
  const runTick = (): void => {
    if (running) return;
    running = true;
    tick()
      .catch((err) => log.error({ err }, 'maintenance tick failed'))
      .finally(() => {
        running = false;
      });
  };
  const timer = setInterval(runTick, Math.max(1, config.loop_interval) * 1000);
  runTick();

  // End states that clients report for minions that did not return go into the job cache.
  const ends = new EventListener(masterEventAddresses(config.sock_dir), [END_STATE_TAG], {
    name: 'maintenance',
  });
  const endsLoop = (async () => {
    for await (const ev of ends) {
      const { jid, id, state } = ev.data as { jid?: unknown; id?: unknown; state?: unknown };
      if (
        typeof jid !== 'string' ||
        typeof id !== 'string' ||
        (state !== 'not_connected' && state !== 'no_response' && state !== 'running')
      )
        continue;
      if (!jobCache?.def.saveEndState) continue;
      await jobCache.def
        .saveEndState(jid, id, state, jobCache.ctx)
        .catch((err) => log.warn({ err, jid, id }, 'end state not stored'));
    }
  })().catch((err) => log.error({ err }, 'end-state listener failed'));
  return async () => {
    clearInterval(timer);
    ends.close();
    await endsLoop;
  };
}
