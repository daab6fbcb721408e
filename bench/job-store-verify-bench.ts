/**
 * What noticing a job store deleted while open costs (returners/job-store/write-queue.ts: one
 * `stat` of the path at most every VERIFY_MS after a commit, and the writes of the last VERIFY_MS
 * kept to be made again): microseconds per return with the check and without it (the same queue
 * given a file that cannot tell), for one return per commit (a quiet master) and 256 per commit
 * (a busy one), in alternating runs; and what one `stat` costs.
 *
 *   npx tsc -p tsconfig.build.json && node dist/bench/job-store-verify-bench.js [--rounds N]
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger } from '../kernel/log.js';
import { insertReturn } from '../returners/job-store/queries.js';
import { StoreFile } from '../returners/job-store/store-file.js';
import { type QueueFile, WriteQueue } from '../returners/job-store/write-queue.js';

const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1]) || 5;
const root = mkdtempSync(join(tmpdir(), 'tsalt-verify-bench-'));

function queue(name: string, check: boolean): { queue: WriteQueue; file: StoreFile } {
  const settings = {
    path: join(root, name, 'jobs.sqlite'),
    synchronous: 'normal' as const,
    busyTimeoutMs: 10_000,
    onCorrupt: 'move_aside' as const,
    bufferSize: 10_000,
    retryMs: 1000,
  };
  const file = new StoreFile(settings, silentLogger());
  const view: QueueFile = check ? file : { db: () => file.db() };
  return { queue: new WriteQueue(view, settings.path, settings.busyTimeoutMs), file };
}

const value = { return: 'x'.repeat(200), retcode: 0, success: true };

/** µs of wall time per return: `n` returns, `perCommit` at a time (each group one commit). */
async function run(name: string, check: boolean, n: number, perCommit: number): Promise<number> {
  const { queue: q, file } = queue(name, check);
  const jid = '20261127000000000000';
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i += perCommit) {
    const group: Promise<unknown>[] = [];
    for (let k = i; k < Math.min(n, i + perCommit); k++)
      group.push(q.run((db) => insertReturn(db, jid, `m${k}`, ['test.echo'], value)));
    await Promise.all(group);
  }
  const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
  q.flush({ wait: true });
  file.close();
  return us;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

const statPath = join(root, 'stat-me');
writeFileSync(statPath, '');
const t0 = process.hrtime.bigint();
for (let i = 0; i < 200_000; i++) statSync(statPath, { throwIfNoEntry: false });
const statUs = Number(process.hrtime.bigint() - t0) / 1000 / 200_000;

const results: Record<string, number[]> = {};
for (let r = 0; r < rounds; r++) {
  for (const [label, n, per] of [
    ['1 per commit', 5_000, 1],
    ['256 per commit', 100_000, 256],
  ] as const) {
    for (const check of r % 2 === 0 ? [true, false] : [false, true]) {
      const key = `${label}, check ${check ? 'on' : 'off'}`;
      results[key] = [...(results[key] ?? []), await run(`${r}-${per}-${check}`, check, n, per)];
    }
  }
}
rmSync(root, { recursive: true, force: true });
console.log(`one statSync of a path: ${statUs.toFixed(2)} µs`);
for (const [key, xs] of Object.entries(results))
  console.log(
    `${key}: median ${median(xs).toFixed(2)} µs per return (${xs.map((x) => x.toFixed(2)).join(', ')})`,
  );
