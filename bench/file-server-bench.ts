/**
 * Issue 19's file-server figures on a real master and minion: `cp.get_file` of a 100 MB file
 * (MB/s, peak RSS of the master's processes and the minion's), the same call again when the
 * minion's copy is unchanged (one hash check, no transfer), and 10,000 `_file_hash` answers —
 * in-process (the handler alone, cold and with the hash cache warm) and over the wire
 * (`cp.cache_master` on 10,000 cached files: one `_file_hash_and_stat` round trip each).
 * Run alone: `npx tsx bench/file-server-bench.ts [--quick]` (or `npm run bench -- --only file-server`).
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { localFileServer } from '../plugins/file-server/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { descendants } from './proc-stats.js';

export interface FileServerBenchResult {
  sizeMB: number;
  getFileSeconds: number;
  getFileMBps: number;
  unchangedSeconds: number;
  masterPeakRssMiB: number;
  masterPeakProcessRssMiB: number;
  minionPeakRssMiB: number;
  minionPeakProcessRssMiB: number;
  hashFiles: number;
  hashColdMs: number;
  hashWarmMs: number;
  cacheMasterFirstSeconds: number;
  cacheMasterCheckSeconds: number;
}

function rssKiB(pid: number): number {
  try {
    const m = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Samples a process tree's RSS every 50 ms: the highest sum and the highest single process. */
function sampler(pid: number) {
  let peakSum = 0;
  let peakOne = 0;
  const tick = () => {
    const all = [pid, ...descendants(pid)].map(rssKiB);
    peakSum = Math.max(
      peakSum,
      all.reduce((a, b) => a + b, 0),
    );
    peakOne = Math.max(peakOne, ...all);
  };
  tick();
  const t = setInterval(tick, 50);
  return {
    stop: () => {
      clearInterval(t);
      tick();
      return { sumMiB: peakSum / 1024, oneMiB: peakOne / 1024 };
    },
  };
}

/** `salt --out json --static` with a long CLI timeout (the cluster helper's default is 60 s). */
async function saltLong(c: Cluster, args: string[]): Promise<{ data: Record<string, unknown>; raw: string }> {
  const r = await c.salt(['--out', 'json', '--static', ...args], 900_000);
  try {
    return { data: JSON.parse(r.stdout) as Record<string, unknown>, raw: r.stdout + r.stderr };
  } catch {
    return { data: {}, raw: `${r.stdout}${r.stderr} (exit ${r.code})` };
  }
}

export async function fileServerBench(
  opts: { quick?: boolean; log?: (s: string) => void } = {},
): Promise<FileServerBenchResult> {
  const log = opts.log ?? (() => undefined);
  const sizeMB = opts.quick ? 20 : 100;
  const hashFiles = opts.quick ? 2000 : 10_000;
  const master: Record<string, unknown> = {};
  const c = new Cluster({ master, quiet: true, productionLogs: true });
  const srv = join(c.root, 'srv');
  mkdirSync(join(srv, 'many'), { recursive: true });
  const chunk = randomBytes(1024 * 1024);
  const big = Buffer.alloc(sizeMB * 1024 * 1024);
  for (let i = 0; i < sizeMB; i++) chunk.copy(big, i * chunk.length);
  writeFileSync(join(srv, 'big.bin'), big);
  for (let i = 0; i < hashFiles; i++) writeFileSync(join(srv, 'many', `f${i}.txt`), `file ${i}\n`);
  master.file_roots = { base: [srv] };
  try {
    // in-process: the `_file_hash` handler alone over every small file
    const fs = localFileServer({ file_roots: { base: [srv] }, cachedir: join(c.root, 'x') });
    const paths = Array.from({ length: hashFiles }, (_, i) => `salt://many/f${i}.txt`);
    let t = performance.now();
    for (const path of paths) await fs.fileHash({ path, saltenv: 'base' });
    const hashColdMs = performance.now() - t;
    t = performance.now();
    for (const path of paths) await fs.fileHash({ path, saltenv: 'base' });
    const hashWarmMs = performance.now() - t;
    log(
      `_file_hash in-process: ${hashFiles} files ${hashColdMs.toFixed(0)} ms cold, ${hashWarmMs.toFixed(0)} ms warm`,
    );

    await c.startMaster();
    await c.startMinion('m1');
    const masterPid = c.master?.proc.pid ?? 0;
    const minionPid = c.minions.get('m1')?.proc.pid ?? 0;
    const dest = join(c.root, 'dest.bin');
    const ms = sampler(masterPid);
    const ns = sampler(minionPid);
    t = performance.now();
    const r = await c.saltJson(['m1', 'cp.get_file', 'salt://big.bin', dest, '-t', '300']);
    const getFileSeconds = (performance.now() - t) / 1000;
    const mPeak = ms.stop();
    const nPeak = ns.stop();
    if (r.data.m1 !== dest || statSync(dest).size !== big.length) {
      throw new Error(`cp.get_file failed: ${JSON.stringify(r.data)}`);
    }
    log(`cp.get_file ${sizeMB} MB: ${getFileSeconds.toFixed(2)} s`);
    t = performance.now();
    await c.saltJson(['m1', 'cp.get_file', 'salt://big.bin', dest]);
    const unchangedSeconds = (performance.now() - t) / 1000;
    rmSync(dest);

    t = performance.now();
    const first = await saltLong(c, ['m1', 'cp.cache_dir', 'salt://many', '-t', '900']);
    const cacheMasterFirstSeconds = (performance.now() - t) / 1000;
    if (!Array.isArray(first.data.m1) || first.data.m1.length !== hashFiles) {
      throw new Error(
        `cp.cache_dir cached ${String(JSON.stringify(first.data)).slice(0, 300)} ${first.raw.slice(0, 300)}`,
      );
    }
    t = performance.now();
    await saltLong(c, ['m1', 'cp.cache_dir', 'salt://many', '-t', '900']);
    const cacheMasterCheckSeconds = (performance.now() - t) / 1000;
    log(
      `cp.cache_dir ${hashFiles} files: ${cacheMasterFirstSeconds.toFixed(1)} s first, ${cacheMasterCheckSeconds.toFixed(1)} s unchanged`,
    );
    return {
      sizeMB,
      getFileSeconds,
      getFileMBps: sizeMB / getFileSeconds,
      unchangedSeconds,
      masterPeakRssMiB: mPeak.sumMiB,
      masterPeakProcessRssMiB: mPeak.oneMiB,
      minionPeakRssMiB: nPeak.sumMiB,
      minionPeakProcessRssMiB: nPeak.oneMiB,
      hashFiles,
      hashColdMs,
      hashWarmMs,
      cacheMasterFirstSeconds,
      cacheMasterCheckSeconds,
    };
  } finally {
    await c.stop();
    rmSync(c.root, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await fileServerBench({ quick: process.argv.includes('--quick'), log: (s) => console.log(s) });
  console.log(JSON.stringify(r, null, 2));
}
