/**
 * Sequential jobs/s and CPU per job by process (issue 25's "≥ 400 jobs/s to 10 minions"): a
 * LocalClient in this process publishes `test.ping` to every minion and collects all returns,
 * one job at a time. `bench/sections/cli.ts` runs it in `npm run bench`; run alone for A/B runs:
 *
 *     node dist/bench/cli-jobs.js --minions 10 --seconds 4 --warmup 16 --windows 3
 *
 * (a copy of an older build runs the same from its own dist/). Prints one JSON line.
 */
import { loadavg } from 'node:os';
import { LocalClient } from '../client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { contextSwitches, cpuDelta, cpuSnapshot, descendants, switchesByRole } from './proc-stats.js';

/** How jobs/s is sampled: a cold window right after start, a warm-up, then steady windows. */
export interface JobsPlan {
  seconds: number;
  warmupSeconds: number;
  windows: number;
}

export interface JobsFigures {
  cold: number;
  warm: number[];
  /** CPU ms per job over the steady windows, all processes and by role (`client` is this one). */
  cpu: { total: number; byRole: Record<string, number> };
  /** Main-thread context switches per job by role over the steady windows: [voluntary, involuntary]. */
  switches: Record<string, [number, number]>;
  jobs: number;
}

/**
 * Sequential jobs/s: the first window after start (`cold`), then, after a warm-up, `windows`
 * windows (`warm`). A fresh master and fresh minions run their hot paths in V8's baseline
 * tiers at first: with 10 minions the first ~2,000 jobs cost up to twice the CPU of later ones
 * (each minion process warms up on its own), so the steady figure needs that many jobs behind it.
 */
export async function jobsPerSecond(c: Cluster, expected: number, plan: JobsPlan): Promise<JobsFigures> {
  const { config } = await loadConfig('master', c.confDir);
  const client = new LocalClient(config);
  await client.listen();
  let jobs = 0;
  const runFor = async (ms: number): Promise<number> => {
    jobs = 0;
    const t0 = Date.now();
    while (Date.now() - t0 < ms) {
      const pub = await client.publish({ tgt: '*', fun: 'test.ping', arg: [] });
      let got = 0;
      for await (const r of client.collect(pub, { timeout: 10, gatherJobTimeout: 5 })) if ('ret' in r) got++;
      if (got !== expected) process.stderr.write(`job ${pub.jid}: ${got}/${expected} returns\n`);
      jobs++;
    }
    return jobs / ((Date.now() - t0) / 1000);
  };
  const cold = await runFor(plan.seconds * 1000);
  await runFor(plan.warmupSeconds * 1000);
  const warm: number[] = [];
  // CPU per job over the warm windows, by process (the client is this process)
  const daemons = [c.master, ...c.minions.values()].map((d) => d?.proc.pid ?? 0);
  const cpu0 = cpuSnapshot(daemons.flatMap((p) => [p, ...descendants(p)]));
  const switchesNow = () => new Map([...cpu0.keys()].map((p) => [p, contextSwitches(p)]));
  const sw0 = switchesNow();
  const self0 = process.cpuUsage();
  let done = 0;
  for (let i = 0; i < plan.windows; i++) {
    warm.push(await runFor(plan.seconds * 1000));
    done += jobs;
  }
  const cpu = cpuDelta(cpu0, cpuSnapshot([...cpu0.keys()]), done);
  const switches = switchesByRole(sw0, switchesNow(), done);
  const self = process.cpuUsage(self0);
  cpu.byRole.client = (self.user + self.system) / 1000 / done;
  cpu.total += cpu.byRole.client;
  await client.close();
  return { cold, warm, cpu, switches, jobs: done };
}

/** A master and `n` minions with Salt's defaults where they matter, then `body`; all stopped after. */
export async function withMinions(n: number, body: (c: Cluster) => Promise<void>): Promise<void> {
  // every daemon logs at warning (console and file), 5 request workers (capped at the core count)
  const c = new Cluster({ quiet: true, productionLogs: true, master: { worker_threads: 5 } });
  try {
    await c.startMaster();
    await Promise.all(Array.from({ length: n }, (_, i) => c.startMinion(`bench${i}`)));
    await c.salt(['*', 'test.ping']);
    await body(c);
  } finally {
    await c.stop();
  }
}

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const v = at > 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(v) ? v : fallback;
}

if (process.argv[1]?.endsWith('cli-jobs.js')) {
  const n = flag('minions', 10);
  const plan: JobsPlan = {
    seconds: flag('seconds', 4),
    warmupSeconds: flag('warmup', 16),
    windows: flag('windows', 3),
  };
  const load0 = loadavg()[0];
  await withMinions(n, async (c) => {
    const f = await jobsPerSecond(c, n, plan);
    const round = (x: number): number => Math.round(x * 1000) / 1000;
    process.stdout.write(
      `${JSON.stringify({
        minions: n,
        jobsPerSecond: f.warm.map((x) => Math.round(x)),
        cold: Math.round(f.cold),
        jobs: f.jobs,
        cpuMsPerJob: round(f.cpu.total),
        byRole: Object.fromEntries(Object.entries(f.cpu.byRole).map(([k, v]) => [k, round(v)])),
        switchesPerJob: Object.fromEntries(
          Object.entries(f.switches).map(([k, [v, i]]) => [
            k,
            [Math.round(v * 100) / 100, Math.round(i * 100) / 100],
          ]),
        ),
        load: [load0, loadavg()[0]].map((x) => Math.round((x ?? 0) * 10) / 10),
      })}\n`,
    );
  });
}
