/**
 * `node dist/bench/schedule-bench.js [seconds]`: the scheduler's figures (issue 22), on a real
 * master and minion over loopback:
 * - drift: a 1-second job (`cmd.run` writing the time) for `seconds` (default 120): each run's
 *   start against its planned time (the first run + k seconds), median and worst, and the runs
 *   counted against those planned;
 * - idle CPU: the minion's main process with 20 scheduled jobs (hourly, so none runs), CPU
 *   seconds per minute over 60 s, beside the same minion with no schedule.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Cluster } from '../tools/local-cluster.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The CPU seconds (user + system) `pid` has used. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function idleCpu(c: Cluster, id: string, schedule: Record<string, unknown>): Promise<number> {
  const d = await c.startMinion(id, { schedule });
  await sleep(10_000);
  const pid = d.proc.pid as number;
  const before = cpuSeconds(pid);
  await sleep(60_000);
  const used = cpuSeconds(pid) - before;
  await d.stop();
  return used;
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 120);
  const c = new Cluster({ quiet: true });
  try {
    await c.startMaster();
    const file = join(c.root, 'drift.times');
    await c.startMinion('drift', {
      schedule: {
        tick: { function: 'cmd.run', args: [`date +%s.%N >> ${file}`], seconds: 1, return_job: false },
      },
    });
    await sleep((seconds + 3) * 1000);
    await c.minions.get('drift')?.stop();
    const times = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => Number(l) * 1000);
    const first = times[0] ?? 0;
    // the planned grid: one run a second from the scheduler's start, anchored at the earliest
    // run (the first run also pays for a cold job process); lateness is each run past its slot
    const offsets = times.map((t, k) => t - k * 1000);
    const anchor = Math.min(...offsets);
    const late = offsets.map((o) => o - anchor).sort((a, b) => a - b);
    const median = late[Math.floor(late.length / 2)] ?? 0;
    const worst = late[late.length - 1] ?? 0;
    const span = ((times[times.length - 1] ?? 0) - first) / 1000;
    const driftEnd = (offsets[offsets.length - 1] ?? 0) - (offsets[1] ?? 0);
    console.log(
      `drift: ${times.length} runs over ${span.toFixed(1)} s (planned ${Math.floor(span) + 1}); lateness against the 1 s grid: median ${median.toFixed(1)} ms, worst ${worst.toFixed(1)} ms; second run to last: ${driftEnd.toFixed(1)} ms cumulative`,
    );
    if (process.argv[3] === 'drift-only') return;
    const twenty = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`job${i}`, { function: 'test.ping', hours: 1 }]),
    );
    const none = await idleCpu(c, 'idle0', {});
    const busy = await idleCpu(c, 'idle20', twenty);
    console.log(
      `idle minion CPU over 60 s: ${none.toFixed(2)} s with no schedule, ${busy.toFixed(2)} s with 20 scheduled jobs`,
    );
  } finally {
    await c.stop();
  }
}

void main();
