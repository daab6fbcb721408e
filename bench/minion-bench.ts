/**
 * The minion's own figures (issue 25): the memory of a minion's process tree (main process and
 * job processes) fresh, right after N jobs and idle after them, and the latency of the first job
 * that needs a job process. A real master and a real minion on loopback, Salt's log levels.
 */

import { LocalClient } from '../client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { descendants, pssMiB, rssMiB, treeCpuMs } from './proc-stats.js';
import { stats } from './report.js';

/** A minion process tree's memory at one moment. */
export interface TreeMemory {
  /** Processes in the tree (the main process and its job processes). */
  processes: number;
  mainRssMiB: number;
  mainPssMiB: number;
  rssMiB: number;
  pssMiB: number;
}

export interface MinionBenchResult {
  jobs: number;
  fresh: TreeMemory;
  afterJobs: TreeMemory;
  idle: TreeMemory;
  /** Seconds waited after the jobs before `idle` was taken. */
  idleAfterS: number;
  /** Wall ms of the first job after start that needs a job process (cmd.run). */
  firstJobMs: number;
  /** Median wall ms of the 10 cmd.run jobs after it. */
  nextJobsMs: number;
  /**
   * CPU ms the minion's tree spent on the first such job (a job process started for it counts:
   * it is alive after the job), and on each of the 10 after it (their mean): load-independent
   * where wall time is not.
   */
  firstJobCpuMs: number;
  nextJobsCpuMs: number;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

export function treeMemory(pid: number): TreeMemory {
  const all = [pid, ...descendants(pid)];
  return {
    processes: all.length,
    mainRssMiB: round(rssMiB(pid)),
    mainPssMiB: round(pssMiB(pid)),
    rssMiB: round(all.reduce((s, p) => s + rssMiB(p), 0)),
    pssMiB: round(all.reduce((s, p) => s + pssMiB(p), 0)),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Starts a master and minion `bench0`, measures, runs `jobs` jobs one at a time (test.ping,
 * cmd.run, grains.items in turn), then waits up to `idleWaitS` seconds for the tree to retire
 * its job processes (it measures at the end of the wait if they stay).
 */
export async function minionBench(jobs: number, idleWaitS: number): Promise<MinionBenchResult> {
  const c = new Cluster({ quiet: true, productionLogs: true, master: { worker_threads: 2 } });
  try {
    await c.startMaster();
    // waits for the minion to answer a test.ping (an inline function: no job process needed)
    const minion = await c.startMinion('bench0');
    const pid = minion.proc.pid as number;
    await sleep(3000);
    const fresh = treeMemory(pid);

    const { config } = await loadConfig('master', c.confDir);
    const client = new LocalClient(config);
    await client.listen();
    const run = async (fun: string, arg: unknown[] = []): Promise<number> => {
      const t0 = performance.now();
      const pub = await client.publish({ tgt: 'bench0', fun, arg });
      let got = 0;
      for await (const r of client.collect(pub, { timeout: 30, gatherJobTimeout: 5 })) if ('ret' in r) got++;
      if (got !== 1) process.stderr.write(`job ${pub.jid} (${fun}): no return\n`);
      return performance.now() - t0;
    };
    try {
      const cpu0 = treeCpuMs(pid);
      const firstJobMs = await run('cmd.run', ['true']);
      const cpu1 = treeCpuMs(pid);
      const next: number[] = [];
      for (let i = 0; i < 10; i++) next.push(await run('cmd.run', ['true']));
      const cpu2 = treeCpuMs(pid);
      const funs: [string, unknown[]][] = [
        ['test.ping', []],
        ['cmd.run', ['echo hi']],
        ['grains.items', []],
      ];
      for (let i = 0; i < jobs; i++) {
        const [fun, arg] = funs[i % funs.length] as [string, unknown[]];
        await run(fun, arg);
      }
      const afterJobs = treeMemory(pid);
      const t0 = Date.now();
      await sleep(3000);
      while (Date.now() - t0 < idleWaitS * 1000 && descendants(pid).length > 0) await sleep(1000);
      const idleAfterS = Math.round((Date.now() - t0) / 1000);
      await sleep(1000);
      const idle = treeMemory(pid);
      return {
        jobs: jobs + 11,
        fresh,
        afterJobs,
        idle,
        idleAfterS,
        firstJobMs: round(firstJobMs),
        nextJobsMs: round(stats(next).median),
        firstJobCpuMs: cpu1 - cpu0,
        nextJobsCpuMs: round((cpu2 - cpu1) / 10),
      };
    } finally {
      await client.close();
    }
  } finally {
    await c.stop();
  }
}
