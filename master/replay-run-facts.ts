/**
 * The facts the publisher weighs before replaying a publish (master/replay-known-runs.ts), read
 * from the master's caches: a job's stored returns and minion list from the master job cache
 * (whatever `master_job_cache` names; opened on first use, since most publisher starts replay
 * nothing), and the minions' addresses from the minion data cache's `ipv4`/`ipv6` grains.
 * Only ids and addresses are kept: return data and pillar are dropped as soon as they are read.
 */
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import {
  type MasterJobCache,
  masterReturnerLoader,
  openMasterJobCache,
} from '../kernel/jobs/master-job-cache.js';
import type { UnitLogger } from '../kernel/loader/define.js';
import { listCachedMinions, readMinionData } from '../kernel/targeting/data-cache.js';
import { BUILTIN_RETURNERS } from '../plugins/builtin-dirs.js';
import type { JobRuns, RunFacts } from './replay-known-runs.js';

export function masterRunFacts(config: ResolvedMasterConfig, log: UnitLogger): RunFacts {
  let cache: Promise<MasterJobCache | undefined> | undefined;
  const jobCache = (): Promise<MasterJobCache | undefined> => {
    cache ??= openMasterJobCache(config, masterReturnerLoader(config, log, BUILTIN_RETURNERS)).catch(
      (err) => {
        log.warn(
          { err: (err as Error).message },
          'publish replay: the job cache is unavailable, replays are not checked against it',
        );
        return undefined;
      },
    );
    return cache;
  };
  return {
    async job(jid: string): Promise<JobRuns | undefined> {
      const jc = await jobCache();
      if (!jc?.def.getJid) return undefined;
      const [stored, load] = await Promise.all([
        jc.def.getJid(jid, jc.ctx),
        jc.def.getLoad ? jc.def.getLoad(jid, jc.ctx) : undefined,
      ]);
      // a "did not return" record (state) is not a run
      const returned = Object.entries(stored)
        .filter(([, r]) => r.state === undefined)
        .map(([id]) => id);
      const out: JobRuns = { returned };
      if (Array.isArray(load?.Minions)) out.expected = load.Minions.filter((m) => typeof m === 'string');
      return out;
    },
    async addresses(): Promise<ReadonlyMap<string, readonly string[]>> {
      const out = new Map<string, string[]>();
      for (const id of await listCachedMinions(config.cachedir)) {
        const grains = (await readMinionData(config.cachedir, id))?.grains;
        if (!grains) continue;
        const list = [grains.ipv4, grains.ipv6].flatMap((l) => (Array.isArray(l) ? l : []));
        out.set(
          id,
          list.filter((a): a is string => typeof a === 'string'),
        );
      }
      return out;
    },
  };
}
