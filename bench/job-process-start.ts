/**
 * A job process's start and first job, alone (issue 25): one master and minion give a real job
 * process's environment (its boot config and host grains, read from /proc/<pid>/environ), then
 * job processes are forked from one or more builds' `minion/job-process.js` in turn, each
 * given a `cmd.run true` over IPC as the executor gives it. Each run records the process's
 * CPU (every thread) when it says ready and after the job's result. Less noisy than
 * bench/minion-first-job.ts (no sign-in, no master), so alternating A/B runs of two builds
 * show a few ms.
 *
 * `node dist/bench/job-process-start.js [--runs N] [NAME=/path/to/dist/minion/job-process.js]...`
 * (default: the entry this build's minion forks, minion/job-process-entry.ts; `JOB_PROCESS_EXEC_ARGV` gives the job processes Node options).
 */
import { fork } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { LocalClient } from '../client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { packIpc } from '../kernel/serial/index.js';
import { jobProcessEntry } from '../minion/job-process-entry.js';
import type { JobResult, RunJob } from '../minion/job-protocol.js';
import { Cluster } from '../tools/local-cluster.js';
import { cpuMs, descendants } from './proc-stats.js';
import { stats } from './report.js';

export interface JobProcessRun {
  /** CPU ms from the fork to its `ready` message. */
  readyCpuMs: number;
  /** CPU ms from the fork to the first job's result. */
  jobCpuMs: number;
  /** The same two from the scheduler's nanosecond counts (every live thread), not 10 ms ticks. */
  readyNsMs: number;
  jobNsMs: number;
}

/**
 * CPU ms of `pid`'s live threads from /proc/<pid>/task/<tid>/schedstat (nanoseconds on a CPU):
 * finer than /proc's 10 ms ticks, so that medians of a few ms apart differ. A job process's
 * threads (V8's and libuv's) live as long as it does.
 */
export function schedCpuMs(pid: number): number {
  let ns = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`))
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    // the process is gone
  }
  return ns / 1e6;
}

/** The environment a real minion gives its job process (this process's own left out). */
async function jobProcessEnv(c: Cluster): Promise<Record<string, string>> {
  const minion = await c.startMinion('jp0');
  const { config } = await loadConfig('master', c.confDir);
  const client = new LocalClient(config);
  await client.listen();
  try {
    const pub = await client.publish({ tgt: 'jp0', fun: 'cmd.run', arg: ['true'] });
    for await (const _ of client.collect(pub, { timeout: 30, gatherJobTimeout: 5 })) {
      // the job's return: its job process is up
    }
  } finally {
    await client.close();
  }
  const child = descendants(minion.proc.pid as number).find((p) =>
    readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('job-process.js'),
  );
  if (!child) throw new Error('the minion started no job process');
  const env: Record<string, string> = {};
  for (const pair of readFileSync(`/proc/${child}/environ`, 'utf8').split('\0')) {
    const at = pair.indexOf('=');
    if (at > 0) env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

/** Forks `file` with `env`, runs `cmd.run true` in it, and measures its CPU. */
function oneRun(file: string, env: Record<string, string>, seq: number): Promise<JobProcessRun> {
  return new Promise((resolve, reject) => {
    const child = fork(file, [], {
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      // e.g. `--import=<file>` to list the modules it loads
      execArgv: process.env.JOB_PROCESS_EXEC_ARGV?.split(' ').filter(Boolean) ?? [],
    });
    const pid = child.pid as number;
    let readyCpuMs = 0;
    let readyNsMs = 0;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`job process ${file} gave no result`));
    }, 60_000);
    child.on('message', (msg: { type?: string }) => {
      if (msg.type === 'ready') {
        readyCpuMs = cpuMs(pid);
        readyNsMs = schedCpuMs(pid);
        const job = { jid: `2026112800000000${String(seq).padStart(4, '0')}`, fun: 'cmd.run', arg: ['true'] };
        child.send({ type: 'run', seq, job, arg: packIpc(job.arg) } satisfies RunJob);
      } else if (msg.type === 'result') {
        const jobCpuMs = cpuMs(pid);
        const jobNsMs = schedCpuMs(pid);
        const ret = (msg as JobResult).result;
        clearTimeout(timer);
        child.once('exit', () => resolve({ readyCpuMs, jobCpuMs, readyNsMs, jobNsMs }));
        child.send({ type: 'exit' });
        if (!ret) reject(new Error('a result without an outcome'));
      }
    });
    child.on('error', reject);
  });
}

/** Runs each build's job process `runs` times, alternating, and returns their runs by name. */
export async function jobProcessRuns(
  files: Record<string, string>,
  runs: number,
): Promise<Record<string, JobProcessRun[]>> {
  const c = new Cluster({ quiet: true, productionLogs: true, master: { worker_threads: 1 } });
  const out: Record<string, JobProcessRun[]> = Object.fromEntries(Object.keys(files).map((n) => [n, []]));
  try {
    await c.startMaster();
    const env = await jobProcessEnv(c);
    const names = Object.keys(files);
    let seq = 0;
    for (let i = 0; i < runs; i++) {
      for (const name of i % 2 ? [...names].reverse() : names) {
        out[name]?.push(await oneRun(files[name] as string, env, ++seq));
      }
    }
  } finally {
    await c.stop();
  }
  return out;
}

if (process.argv[1]?.endsWith('job-process-start.js')) {
  const args = process.argv.slice(2);
  let runs = 10;
  const files: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--runs') runs = Number(args[++i]);
    else {
      const [name, ...path] = (args[i] ?? '').split('=');
      if (name) files[name] = path.join('=');
    }
  }
  if (Object.keys(files).length === 0) files.this = jobProcessEntry();
  const res = await jobProcessRuns(files, runs);
  for (const [name, rs] of Object.entries(res)) {
    const ready = stats(rs.map((r) => r.readyCpuMs));
    const job = stats(rs.map((r) => r.jobCpuMs));
    const readyNs = stats(rs.map((r) => r.readyNsMs));
    const jobNs = stats(rs.map((r) => r.jobNsMs));
    process.stdout.write(
      `${name}: ${rs.length} runs; CPU to ready median ${ready.median} ms (min ${ready.min}); to the job's result median ${job.median} ms (min ${job.min}); from schedstat: to ready ${readyNs.median.toFixed(1)} (min ${readyNs.min.toFixed(1)}), to the result ${jobNs.median.toFixed(1)} (min ${jobNs.min.toFixed(1)})\n`,
    );
  }
}
