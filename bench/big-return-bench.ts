/**
 * Issue 27 item 20's scenario: a 50 MB argument to 3 real minions (`test.arg`, which returns it,
 * so 150 MB of returns reach the master), and the request server's peak resident memory
 * (VmHWM) across it, and whether every return reached the job store intact. No Salt
 * counterpart: a measurement.
 *
 *   npm run build && node dist/bench/big-return-bench.js [MB=50] [minions=3] [fun=test.arg]
 *   (BIG_RETURN_LOGS=1: print the ends of the master and first minion logs)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LocalClient } from '../client/local-client.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { descendants } from './proc-stats.js';

/** The master's child whose command line names `name` (its forked module). */
function childPid(masterPid: number, name: string): number {
  for (const pid of descendants(masterPid)) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${name}.js`)) return pid;
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no ${name} child under ${masterPid}`);
}

/** A `/proc/<pid>/status` field in MiB. */
function statusMiB(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

const mb = Number(process.argv[2] ?? 50);
const count = Number(process.argv[3] ?? 3);
const fun = process.argv[4] ?? 'test.arg';
// BIG_RETURN_MAX_REQUEST=<bytes>: the master's max_request_size (returns over it are refused)
const limit = process.env.BIG_RETURN_MAX_REQUEST;
const c = new Cluster({
  quiet: true,
  master: { timeout: 120, ...(limit ? { max_request_size: Number(limit) } : {}) },
});
try {
  await c.startMaster();
  const ids = Array.from({ length: count }, (_, i) => `big${i}`);
  for (const id of ids) await c.startMinion(id);
  const server = childPid(c.master!.proc.pid!, 'request-server');
  const { config } = await loadConfig('master', c.confDir);
  const client = new LocalClient(config);
  await client.listen();
  const before = statusMiB(server, 'VmRSS');
  const arg = 'x'.repeat(mb * 1024 * 1024);
  // the request server's RSS through the job: the peak while publishing, and after
  const samples: [number, number][] = [];
  const sampler = setInterval(() => samples.push([Date.now(), statusMiB(server, 'VmRSS')]), 20);
  const t0 = Date.now();
  const pub = await client.publish({ tgt: ids, tgtType: 'list', fun, arg: [arg] });
  const published = Date.now();
  let returned = 0;
  // the events carry returns trimmed to max_event_size: the job store has them whole
  for await (const r of client.collect(pub, { timeout: 120, gatherJobTimeout: 10 }))
    if ('ret' in r) returned++;
  const seconds = (Date.now() - t0) / 1000;
  clearInterval(sampler);
  const peakUntil = (t: number) =>
    Math.round(Math.max(0, ...samples.filter(([at]) => at <= t).map(([, m]) => m)));
  const stored = await c.jobReturns(pub.jid, (s) => Object.keys(s).length === count, 10_000);
  const intact = Object.values(stored).filter(
    (s) => (s.return as { args?: unknown[] }).args?.[0] === arg,
  ).length;
  await client.close();
  const threads = readdirSync(`/proc/${server}/task`).length;
  if (process.env.BIG_RETURN_LOGS || intact < count)
    for (const log of [join(c.root, 'master.log'), join(c.root, 'minions', 'big0', 'minion.log')])
      console.error(log, readFileSync(log, 'utf8').split('\n').slice(-15).join('\n').slice(-4000));
  console.log(
    JSON.stringify({
      mb,
      fun,
      returned,
      minions: count,
      intact,
      seconds,
      requestServerRssBeforeMiB: Math.round(before),
      requestServerPeakWhilePublishingMiB: peakUntil(published),
      requestServerPeakMiB: Math.round(statusMiB(server, 'VmHWM')),
      requestServerRssAfterMiB: Math.round(statusMiB(server, 'VmRSS')),
      threads,
    }),
  );
} finally {
  await c.stop();
}
