/** Issue 25's minion figures: the minion tree's memory fresh and idle after jobs, the first job's latency. */
import { type MinionBenchResult, minionBench, type TreeMemory } from '../minion-bench.js';
import { details, report } from '../report.js';

function memory(name: string, m: TreeMemory, when: string, salt?: number, goal?: string): void {
  report({
    name: `minion RSS ${name} (${m.processes} process${m.processes > 1 ? 'es' : ''})`,
    value: m.rssMiB,
    unit: 'MiB',
    ...(salt !== undefined && { salt }),
    ...(goal && { goal }),
    method: `sum of VmRSS of salt-minion and its job processes ${when}; main process ${m.mainRssMiB} MiB`,
  });
  report({
    name: `minion PSS ${name}`,
    value: m.pssMiB,
    unit: 'MiB',
    method: `sum of Pss (/proc/<pid>/smaps_rollup) of salt-minion and its job processes ${when}; main process ${m.mainPssMiB} MiB`,
  });
}

export async function minionSection(quick: boolean): Promise<void> {
  const jobs = quick ? 300 : 1000;
  const r: MinionBenchResult = await minionBench(jobs, 90);
  details.minion = r;
  memory('fresh', r.fresh, '3 s after it first answered test.ping', 66);
  memory(
    `after ${r.jobs} jobs`,
    r.afterJobs,
    `right after ${r.jobs} sequential jobs (test.ping, cmd.run, grains.items)`,
  );
  memory(
    `idle after ${r.jobs} jobs`,
    r.idle,
    `${r.idleAfterS} s after the last job (waiting up to 90 s for idle job processes to retire)`,
    66,
    '≤ 50 MiB',
  );
  report({
    name: 'first job needing a job process after start (cmd.run)',
    value: r.firstJobMs / 1000,
    unit: 's',
    method: `wall time of publish to return of cmd.run true, the first non-inline job after start; the 10 after it: median ${r.nextJobsMs} ms`,
  });
  report({
    name: '  its added latency over the next ones',
    value: (r.firstJobMs - r.nextJobsMs) / 1000,
    unit: 's',
    goal: '≤ 0.15 s',
    method: 'the first cmd.run minus the median of the 10 after it',
  });
  report({
    name: '  the CPU it added over the next ones',
    value: (r.firstJobCpuMs - r.nextJobsCpuMs) / 1000,
    unit: 's',
    method: `CPU (user + system) of the minion and its job processes over the first cmd.run (${r.firstJobCpuMs} ms, a job process started for it included) minus the mean of the 10 after it (${r.nextJobsCpuMs} ms); wall time on a loaded machine is several times this`,
  });
}
