/**
 * The job store at fleet scale: N returns (jobs of 10 minions) written into the default
 * `job_store` (SQLite) and, in the same run on the same disk, into Salt's directory layout
 * (`local_cache`); then write time, disk bytes, files (inodes), `jobs.list_jobs` and
 * `jobs.lookup_jid` latency at that size, and removal of every job (`keep_jobs_seconds`).
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/job-store-bench.js [--quick] [--returns N]
 *
 * `--quick` writes 100,000 returns instead of 1,000,000. Listing the directory cache walks
 * every job directory; it runs in a worker thread that is stopped after the time box.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { JobQuery, ReturnerContext, ReturnerDef } from '../kernel/jobs/returner.js';
import { silentLogger } from '../kernel/log.js';
import jobStore from '../returners/job-store/index.js';
import localCache from '../returners/local-cache.js';
import { type LatencyStats, MINIONS_PER_JOB, timeRuns, writeAll } from './store-workload.js';

export type { LatencyStats } from './store-workload.js';

/** A timing, or why there is none (`did not finish in 60 s`). */
export type Timed = LatencyStats | string;

/** One store's figures at the benchmark size. */
export interface StoreFigures {
  store: string;
  returns: number;
  jobs: number;
  writeSeconds: number;
  returnsPerSecond: number;
  diskBytes: number;
  files: number;
  /** `jobs.list_jobs search_function=pkg.up*` (a rare function: about 1 job in 1000). */
  listByFunction: Timed;
  /** `jobs.list_jobs search_function=test.ping` newest 100 (1 job in 6 matches). */
  listCommonFunction100: Timed;
  /** `jobs.list_jobs` newest 100 jobs. */
  listNewest100: Timed;
  /** `jobs.list_jobs search_target=<one minion>` newest 100. */
  listByTarget: Timed;
  /** Every job with its summary (Salt's `get_jids`, what `jobs.list_jobs` does in Salt). */
  listAll: Timed;
  /** `jobs.lookup_jid`: getJid + getLoad of a random job. */
  lookupJid: LatencyStats;
  /** Removing every job (cleanOldJobs with keep 0), seconds. */
  cleanSeconds: number;
  /** Disk bytes left after removing every job. */
  diskBytesAfterClean: number;
}

export interface JobStoreBenchResult {
  returns: number;
  minionsPerJob: number;
  timeBoxSeconds: number;
  stores: StoreFigures[];
}

export interface JobStoreBenchOptions {
  /** Returns to write per store (default 1,000,000; 100,000 with `quick`). */
  returns?: number;
  quick?: boolean;
  /** Repeats of each latency measurement (default 20). */
  runs?: number;
  /** Seconds a directory-cache listing may take before it is reported unfinished (default 60). */
  timeBoxSeconds?: number;
  /** Which stores (default both). */
  stores?: ReadonlyArray<'job_store' | 'local_cache'>;
  /** Where lines of the table go (default stdout). */
  print?: (line: string) => void;
}

/** Disk usage (allocated bytes) and inode count of a tree: GNU du, else a walk. */
function usage(path: string): { bytes: number; files: number } {
  const b = spawnSync('du', ['-s', '-B1', path], { encoding: 'utf8' });
  const f = spawnSync('du', ['-s', '--inodes', path], { encoding: 'utf8' });
  if (b.status === 0 && f.status === 0) {
    return { bytes: Number(b.stdout.split(/\s/)[0]), files: Number(f.stdout.split(/\s/)[0]) };
  }
  let bytes = 0;
  let files = 0;
  const walk = (p: string): void => {
    const st = statSync(p);
    files++;
    bytes += st.blocks * 512;
    if (st.isDirectory()) for (const e of readdirSync(p)) walk(join(p, e));
  };
  walk(path);
  return { bytes, files };
}

type Ctx = ReturnerContext;

const QUERIES: Record<
  'listByFunction' | 'listCommonFunction100' | 'listNewest100' | 'listByTarget',
  JobQuery
> = {
  listByFunction: { searchFunction: 'pkg.up*' },
  listCommonFunction100: { searchFunction: 'test.ping', limit: 100 },
  listNewest100: { limit: 100 },
  listByTarget: { searchTarget: 'web0042', limit: 100 },
};

interface WorkerTask {
  jobStoreBenchWorker: true;
  cachedir: string;
  query?: JobQuery;
}

/** Runs a local_cache listing in a worker thread; stops it after the time box. */
function timeBoxedList(cachedir: string, query: JobQuery | undefined, seconds: number): Promise<Timed> {
  return new Promise((resolve) => {
    const task: WorkerTask = { jobStoreBenchWorker: true, cachedir, query };
    const worker = new Worker(fileURLToPath(import.meta.url), { workerData: task });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve(`did not finish in ${seconds} s`);
    }, seconds * 1000);
    worker.once('message', (ms: number) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve({ min: ms, median: ms, max: ms, runs: 1 });
    });
    worker.once('error', (err) => {
      clearTimeout(timer);
      resolve(`failed: ${err.message}`);
    });
  });
}

async function measure(
  name: 'job_store' | 'local_cache',
  returns: number,
  runs: number,
  timeBox: number,
  print: (line: string) => void,
): Promise<StoreFigures> {
  const def = (name === 'job_store' ? jobStore : localCache) as unknown as ReturnerDef;
  const root = mkdtempSync(join(tmpdir(), `tsalt-bench-${name}-`));
  const ctx: Ctx = { opts: { cachedir: root, hash_type: 'sha256' }, log: silentLogger(), options: {} };
  const jobs = Math.ceil(returns / MINIONS_PER_JOB);
  try {
    print(`  ${name}: writing ${jobs * MINIONS_PER_JOB} returns (${jobs} jobs of ${MINIONS_PER_JOB}) ...`);
    const jids: string[] = new Array(jobs);
    const t0 = process.hrtime.bigint();
    await writeAll(def, ctx, jobs, jids);
    const writeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const disk = usage(root);
    const pick = (i: number) => jids[Math.floor(((i + 1) * 7919 * 104729) % jobs)] as string;
    const lookupJid = await timeRuns(runs * 5, async (i) => {
      const jid = pick(i);
      await def.getJid?.(jid, ctx);
      await def.getLoad?.(jid, ctx);
    });
    const timed: Partial<Record<keyof typeof QUERIES | 'listAll', Timed>> = {};
    for (const [key, query] of Object.entries(QUERIES) as Array<[keyof typeof QUERIES, JobQuery]>) {
      timed[key] =
        name === 'job_store'
          ? await timeRuns(runs, () => (def.listJobs as NonNullable<ReturnerDef['listJobs']>)(query, ctx))
          : await timeBoxedList(root, query, timeBox);
    }
    timed.listAll =
      name === 'job_store'
        ? await timeRuns(Math.min(runs, 3), () => (def.getJids as NonNullable<ReturnerDef['getJids']>)(ctx))
        : await timeBoxedList(root, undefined, timeBox);
    print(`  ${name}: removing every job ...`);
    const c0 = process.hrtime.bigint();
    await def.cleanOldJobs?.(0, ctx);
    const cleanSeconds = Number(process.hrtime.bigint() - c0) / 1e9;
    const after = usage(root);
    await def.close?.(ctx);
    return {
      store: name,
      returns: jobs * MINIONS_PER_JOB,
      jobs,
      writeSeconds,
      returnsPerSecond: (jobs * MINIONS_PER_JOB) / writeSeconds,
      diskBytes: disk.bytes,
      files: disk.files,
      listByFunction: timed.listByFunction ?? 'not run',
      listCommonFunction100: timed.listCommonFunction100 ?? 'not run',
      listNewest100: timed.listNewest100 ?? 'not run',
      listByTarget: timed.listByTarget ?? 'not run',
      listAll: timed.listAll ?? 'not run',
      lookupJid,
      cleanSeconds,
      diskBytesAfterClean: after.bytes,
    };
  } finally {
    await def.close?.(ctx);
    rmSync(root, { recursive: true, force: true });
  }
}

function fmtTimed(t: Timed): string {
  if (typeof t === 'string') return t;
  return t.runs === 1
    ? `${t.median.toFixed(1)} ms`
    : `${t.median.toFixed(2)} ms [${t.min.toFixed(2)}–${t.max.toFixed(2)}]`;
}

const MiB = 1024 * 1024;

/** Prints the comparison table. */
export function printJobStoreTable(r: JobStoreBenchResult, print: (line: string) => void): void {
  const cols = r.stores.map((s) => s.store);
  const row = (label: string, cells: string[]) =>
    print(`${label.padEnd(46)}${cells.map((c) => c.padStart(34)).join('')}`);
  print('');
  row(`job store, ${r.returns.toLocaleString('en-US')} returns`, cols);
  row(
    'write time (s)',
    r.stores.map((s) => s.writeSeconds.toFixed(1)),
  );
  row(
    'returns/s',
    r.stores.map((s) => s.returnsPerSecond.toFixed(0)),
  );
  row(
    'disk (MiB allocated)',
    r.stores.map((s) => (s.diskBytes / MiB).toFixed(1)),
  );
  row(
    'files + directories (inodes)',
    r.stores.map((s) => s.files.toLocaleString('en-US')),
  );
  row(
    'lookup_jid: getJid+getLoad (median [min–max])',
    r.stores.map((s) => fmtTimed(s.lookupJid)),
  );
  row(
    'list_jobs search_function=pkg.up* (~0.1%)',
    r.stores.map((s) => fmtTimed(s.listByFunction)),
  );
  row(
    'list_jobs search_function=test.ping, 100',
    r.stores.map((s) => fmtTimed(s.listCommonFunction100)),
  );
  row(
    'list_jobs newest 100',
    r.stores.map((s) => fmtTimed(s.listNewest100)),
  );
  row(
    'list_jobs search_target=web0042, 100',
    r.stores.map((s) => fmtTimed(s.listByTarget)),
  );
  row(
    'list_jobs everything (get_jids)',
    r.stores.map((s) => fmtTimed(s.listAll)),
  );
  row(
    'remove every job (s)',
    r.stores.map((s) => s.cleanSeconds.toFixed(1)),
  );
  row(
    'disk after removal (MiB)',
    r.stores.map((s) => (s.diskBytesAfterClean / MiB).toFixed(1)),
  );
}

/** Runs the benchmark and prints its table; returns the figures (JSON-able). */
export async function jobStoreBench(options: JobStoreBenchOptions = {}): Promise<JobStoreBenchResult> {
  const print = options.print ?? ((line: string) => process.stdout.write(`${line}\n`));
  const returns = options.returns ?? (options.quick ? 100_000 : 1_000_000);
  const runs = options.runs ?? 20;
  const timeBoxSeconds = options.timeBoxSeconds ?? 60;
  const result: JobStoreBenchResult = { returns, minionsPerJob: MINIONS_PER_JOB, timeBoxSeconds, stores: [] };
  for (const name of options.stores ?? ['job_store', 'local_cache']) {
    result.stores.push(await measure(name, returns, runs, timeBoxSeconds, print));
  }
  printJobStoreTable(result, print);
  return result;
}

// Worker side of timeBoxedList.
if (!isMainThread && (workerData as Partial<WorkerTask> | undefined)?.jobStoreBenchWorker) {
  const task = workerData as WorkerTask;
  const ctx: Ctx = {
    opts: { cachedir: task.cachedir, hash_type: 'sha256' },
    log: silentLogger(),
    options: {},
  };
  const t0 = process.hrtime.bigint();
  if (task.query) await localCache.listJobs?.(task.query, ctx);
  else await localCache.getJids?.(ctx);
  parentPort?.postMessage(Number(process.hrtime.bigint() - t0) / 1e6);
}

// Run alone: node dist/bench/job-store-bench.js [--quick] [--returns N] [--only job_store]
if (isMainThread && process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const argv = process.argv.slice(2);
  const arg = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const only = arg('--only');
  const result = await jobStoreBench({
    quick: argv.includes('--quick'),
    returns: arg('--returns') ? Number(arg('--returns')) : undefined,
    stores: only === 'job_store' || only === 'local_cache' ? [only] : undefined,
  });
  if (argv.includes('--json')) process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
