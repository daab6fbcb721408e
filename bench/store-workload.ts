/**
 * The workload both job-store benchmarks (bench/job-store-bench.ts, bench/postgres-store-bench.ts)
 * write and time: jobs of 10 minions from a fleet of 1,000 web minions, a mix of functions with
 * realistic returns (1 in 1,000 a rare `pkg.upgrade`, 1 in 7 targeted by list), written by 8
 * lanes at once.
 */
import type { ReturnerContext, ReturnerDef } from '../kernel/jobs/returner.js';
import type { JobReturn, PublishRequest } from '../kernel/jobs/types.js';

/** Milliseconds over repeated calls. */
export interface LatencyStats {
  min: number;
  median: number;
  max: number;
  runs: number;
}

export const MINIONS_PER_JOB = 10;
const FLEET = 1000;
const IN_FLIGHT = 8;
const FUNS = ['test.ping', 'cmd.run', 'state.apply', 'grains.item', 'disk.usage', 'service.status'];

function loadFor(i: number, jid: string, minions: string[]): PublishRequest {
  const fun = i % 1000 === 999 ? 'pkg.upgrade' : (FUNS[i % FUNS.length] as string);
  const list = i % 7 === 0;
  return {
    cmd: 'publish',
    tgt: list ? minions : 'web*',
    tgt_type: list ? 'list' : 'glob',
    fun,
    arg: fun === 'cmd.run' ? ['df -h /'] : [],
    ret: '',
    jid,
    user: 'root',
  };
}

function returnFor(load: PublishRequest, id: string): JobReturn {
  const fun = String(load.fun);
  let value: unknown = true;
  if (fun === 'cmd.run')
    value = `Filesystem      Size  Used Avail Use% Mounted on\n/dev/vda        252G   23G   79G  23% / (${id})`;
  else if (fun === 'state.apply')
    value = {
      'file_|-motd_|-/etc/motd_|-managed': {
        result: true,
        comment: 'File /etc/motd is in the correct state',
        changes: {},
        duration: 3.2,
        __run_num__: 0,
      },
      'pkg_|-nginx_|-nginx_|-installed': {
        result: true,
        comment: 'All specified packages are already installed',
        changes: {},
        duration: 410.7,
        __run_num__: 1,
      },
    };
  else if (fun === 'grains.item') value = { os: 'Ubuntu', osrelease: '22.04', id };
  else if (fun === 'disk.usage')
    value = { '/': { filesystem: '/dev/vda', '1K-blocks': '263174212', used: '24117248', capacity: '10%' } };
  return { id, jid: load.jid, fun, fun_args: load.arg, return: value, retcode: 0, success: true };
}

function stats(ms: number[]): LatencyStats {
  const s = [...ms].sort((a, b) => a - b);
  return {
    min: s[0] ?? 0,
    median: s[Math.floor(s.length / 2)] ?? 0,
    max: s[s.length - 1] ?? 0,
    runs: s.length,
  };
}

export async function timeRuns(runs: number, body: (i: number) => Promise<unknown>): Promise<LatencyStats> {
  await body(-1); // warm
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await body(i);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return stats(ms);
}

/**
 * Writes `jobs` jobs (prepJid, saveLoad, a return per minion) through `def`, 8 at a time;
 * `jids[i]` gets job i's jid; `progress` hears the returns written every 20,000 jobs.
 */
export async function writeAll<O extends object>(
  def: ReturnerDef<O>,
  ctx: ReturnerContext<O>,
  jobs: number,
  jids: string[],
  progress?: (returns: number) => void,
): Promise<void> {
  let next = 0;
  let shown = 0;
  const lane = async (): Promise<void> => {
    for (;;) {
      const i = next++;
      if (i >= jobs) return;
      const minions = Array.from(
        { length: MINIONS_PER_JOB },
        (_, k) => `web${String((i * MINIONS_PER_JOB + k) % FLEET).padStart(4, '0')}`,
      );
      const jid = await (def.prepJid as NonNullable<ReturnerDef<O>['prepJid']>)(ctx);
      jids[i] = jid;
      const load = loadFor(i, jid, minions);
      await def.saveLoad?.(jid, load, minions, ctx);
      await Promise.all(minions.map((id) => def.returner(returnFor(load, id), ctx)));
      if (progress && i - shown >= 20_000) {
        shown = i;
        progress(i * MINIONS_PER_JOB);
      }
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}
