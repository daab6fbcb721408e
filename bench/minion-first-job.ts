/**
 * The first job that needs a job process (issue 25), measured many times: one master, then a
 * fresh minion per run, each answering a `test.ping` (inline: no job process), then a
 * `cmd.run true`, the first job that starts a job process. Each run records the minion tree's
 * CPU over that job (the job process it started included), the job process's own CPU, and the
 * wall time. Variants given as environment settings for the minion alternate run by run (A/B
 * on one machine whose speed drifts).
 *
 * `node dist/bench/minion-first-job.js [--runs N] [--variant NAME=VAR=VALUE[,VAR=VALUE]]...`
 */
import { LocalClient } from '../client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { cpuMs, descendants, treeCpuMs } from './proc-stats.js';
import { stats } from './report.js';

export interface FirstJobRun {
  /** CPU ms of the minion tree over the job. */
  treeCpuMs: number;
  /** CPU ms of the job process from its start to after the job. */
  jobProcessCpuMs: number;
  wallMs: number;
}

export interface Variant {
  name: string;
  env: Record<string, string>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs each variant `runs` times, alternating, and returns their runs by name. */
export async function firstJobRuns(
  variants: Variant[],
  runs: number,
): Promise<Record<string, FirstJobRun[]>> {
  const c = new Cluster({ quiet: true, productionLogs: true, master: { worker_threads: 2 } });
  const out: Record<string, FirstJobRun[]> = Object.fromEntries(variants.map((v) => [v.name, []]));
  try {
    await c.startMaster();
    const { config } = await loadConfig('master', c.confDir);
    const client = new LocalClient(config);
    await client.listen();
    try {
      for (let i = 0; i < runs; i++) {
        for (const v of i % 2 ? [...variants].reverse() : variants) {
          let run: FirstJobRun | undefined;
          // a run whose minion already holds a job process (a `saltutil.find_job` after the
          // readiness ping's timeout starts one) measures nothing: it is made again
          for (let attempt = 0; !run && attempt < 5; attempt++) run = await oneRun(client, i, v);
          if (run) out[v.name]?.push(run);
          else process.stderr.write(`run ${i} ${v.name}: a job process was already running each time\n`);
        }
      }
    } finally {
      await client.close();
    }
  } finally {
    await c.stop();
  }
  return out;

  async function oneRun(client: LocalClient, i: number, v: Variant): Promise<FirstJobRun | undefined> {
    const saved = { ...process.env };
    Object.assign(process.env, v.env);
    const minion = await c.startMinion('first0');
    for (const k of Object.keys(v.env)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    const pid = minion.proc.pid as number;
    await sleep(1500);
    if (descendants(pid).length > 0) {
      await minion.stop();
      c.minions.delete('first0');
      return undefined;
    }
    const cpu0 = treeCpuMs(pid);
    const t0 = performance.now();
    const pub = await client.publish({ tgt: 'first0', fun: 'cmd.run', arg: ['true'] });
    let got = 0;
    for await (const r of client.collect(pub, { timeout: 30, gatherJobTimeout: 5 })) if ('ret' in r) got++;
    const wallMs = performance.now() - t0;
    const treeCpu = treeCpuMs(pid) - cpu0;
    const jobCpu = descendants(pid).reduce((s, p) => s + cpuMs(p), 0);
    if (got !== 1) process.stderr.write(`run ${i} ${v.name}: no return\n`);
    if (process.env.FIRST_JOB_VERBOSE)
      process.stderr.write(`${v.name} ${treeCpu} ${jobCpu} ${Math.round(wallMs)}\n`);
    await minion.stop();
    c.minions.delete('first0');
    return { treeCpuMs: treeCpu, jobProcessCpuMs: jobCpu, wallMs: Math.round(wallMs) };
  }
}

function parseVariant(text: string): Variant {
  const [name, ...rest] = text.split('=');
  const env: Record<string, string> = {};
  for (const pair of rest.join('=').split(',').filter(Boolean)) {
    const [k, ...v] = pair.split('=');
    if (k) env[k] = v.join('=');
  }
  return { name: name ?? text, env };
}

if (process.argv[1]?.endsWith('minion-first-job.js')) {
  const args = process.argv.slice(2);
  let runs = 10;
  const variants: Variant[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else if (args[i] === '--variant') variants.push(parseVariant(args[++i] ?? ''));
  }
  if (variants.length === 0) variants.push({ name: 'default', env: {} });
  const res = await firstJobRuns(variants, runs);
  for (const [name, rs] of Object.entries(res)) {
    const tree = stats(rs.map((r) => r.treeCpuMs));
    const job = stats(rs.map((r) => r.jobProcessCpuMs));
    const wall = stats(rs.map((r) => r.wallMs));
    process.stdout.write(
      `${name}: ${rs.length} runs; tree CPU median ${tree.median} ms (min ${tree.min}); job process CPU median ${job.median} ms (min ${job.min}); wall median ${wall.median} ms (min ${wall.min})\n`,
    );
  }
}
