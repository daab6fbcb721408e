/**
 * Swarm figures (issue 5): an auth storm against a fresh master and again after a master
 * restart, `test.ping` fan-out to every swarm minion, and the master's memory with them all
 * connected. The master is a real tsalt master (tools/local-cluster.ts, auto_accept); the
 * minions are tools/swarm workers on the same machine. Functions for bench/run.ts; standalone:
 * `node dist/bench/swarm-bench.js --count 1000 [--runs 5] [--procs N] [--workers 5] [--no-share-publishes]`.
 */
import { renameSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LocalClient } from '../client/local-client.js';
import { presencePath, readPresence } from '../kernel/bus/presence.js';
import { loadConfig } from '../kernel/config/index.js';
import { Cluster } from '../tools/local-cluster.js';
import { minionId } from '../tools/swarm/grains-spread.js';
import { defaultKeysDir, ensureKeys } from '../tools/swarm/key-cache.js';
import { type SwarmHandle, startSwarm } from '../tools/swarm/swarm-runner.js';
import { NEW_INODES_PER_SIGN_IN, newFileCpuMs } from './new-file-cost.js';
import {
  cpuDelta,
  cpuMs,
  cpuSnapshot,
  descendants,
  threadCpuDelta,
  threadCpuMs,
  treeCpuMs,
  treePssByRole,
  treePssMiB,
  treeRssMiB,
} from './proc-stats.js';
import { masterRsaCpuMs, PRIVATE_OPS_PER_MINION, rsaFloor } from './rsa-floor.js';

export interface SwarmBenchOptions {
  /** Worker processes of the swarm (default: one per 2,500 minions). */
  procs?: number;
  /** The master's `worker_threads` (default 5, Salt's). */
  workerThreads?: number;
  keysDir?: string;
  /** Distinct RSA keys (default one per minion; see tools/swarm/key-cache.ts). */
  keyPool?: number;
  /** Each swarm worker opens a publish once for its minions (default; tools/swarm/shared-publish.ts). */
  sharePublishes?: boolean;
  /** Seconds to wait for the whole swarm at each step. */
  timeoutS?: number;
  log?: (line: string) => void;
}

export interface AuthStormResult {
  count: number;
  procs: number;
  /** Seconds from `go` until every minion holds its keys. */
  authSeconds: number;
  /** Seconds from `go` until the master's presence shows every minion connected. */
  connectedSeconds: number;
  /**
   * The master's CPU per sign-in (ms, all its processes and threads), from `go` until every
   * minion is connected and its start-up grains report (`_pillar`) answered, by process.
   */
  masterCpuMsPerSignIn: number;
  masterCpuByRole: Record<string, number>;
  /** The request server's share of it by thread (bench/proc-stats.ts `threadCpuDelta`). */
  serverThreadsCpuMs: { label: string; ms: number }[];
  /**
   * CPU ms the filesystem takes for one new file in the master's folder, measured right after
   * the storm (bench/new-file-cost.ts): a fresh sign-in makes {@link NEW_INODES_PER_SIGN_IN}.
   */
  newFileCpuMs: number;
  /** After a master restart: seconds until presence shows every minion again (SUB reconnects). */
  restartConnectedSeconds: number;
  /**
   * The master's CPU per re-auth (ms, all its processes): a sign-in of a minion whose key,
   * session and data cache files exist (no new file, no grains report). Measured after the
   * restart as the first job's CPU (which makes every minion sign in again) less a second
   * job's, both to every minion, each from a quiet master until it is quiet again.
   */
  masterCpuMsPerReauth: number;
  masterCpuByRoleReauth: Record<string, number>;
  /** After the restart, the first job triggers the re-auth storm: seconds from its publish to the last return. */
  restartReauthSeconds: number;
  restartReturns: number;
  reauths: number;
  errors: number;
  /** The last error a swarm worker reported (a failed sign-in, a lost return), if any. */
  lastError?: string;
}

export interface FanOutResult {
  count: number;
  runs: number;
  /**
   * The first `test.ping` after the storm, not among `seconds`: the master is still taking the
   * minions' start-up grains reports and compiling its hot paths.
   */
  firstSeconds: number;
  firstReturns: number;
  /** Seconds from publish to the last return, per run (after the first). */
  seconds: number[];
  median: number;
  /** Returns per run. */
  returns: number[];
  /** Master RSS (all its processes) with every minion connected, after the runs. */
  masterRssMiB: number;
  /** The same tree's PSS: shared pages (the node binary, libraries) counted once. */
  masterPssMiB: number;
  /** That PSS by process (request-server, publisher, ...). */
  masterPssByRole: Record<string, number>;
  masterProcesses: number;
  /**
   * CPU µs per return over the runs after the first, every process (the master's, the swarm's,
   * and this one, whose LocalClient is the `salt` CLI's part), by role, from /proc.
   */
  cpuUsPerReturn: number;
  cpuUsByRole: Record<string, number>;
  /**
   * CPU µs per return of the request server's main thread alone, which takes every return on a
   * machine of 2 cores or fewer (master/light-lane.ts): there a fan-out to N minions takes at
   * least N times this.
   */
  routerUsPerReturn: number;
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Sum of VmRSS of the master process and all its children (MiB). */
export function masterRss(pid: number): { mib: number; processes: number } {
  return treeRssMiB(pid);
}

interface Rig {
  cluster: Cluster;
  swarm: SwarmHandle;
  cachedir: string;
  ids: Set<string>;
}

async function rig(count: number, o: SwarmBenchOptions): Promise<Rig> {
  const log = o.log ?? (() => undefined);
  const keysDir = o.keysDir ?? defaultKeysDir();
  const made = await ensureKeys(keysDir, Math.min(count, o.keyPool ?? count));
  if (made) log(`generated ${made} swarm keys in ${keysDir}`);
  const cluster = new Cluster({
    quiet: true,
    productionLogs: true,
    master: { worker_threads: o.workerThreads ?? 5, auto_accept: true, keep_jobs_seconds: 3600 },
  });
  await cluster.startMaster();
  let swarm: SwarmHandle;
  try {
    swarm = await startSwarm({
      count,
      masterHost: '127.0.0.1',
      retPort: cluster.retPort,
      procs: o.procs,
      keysDir,
      keyPool: o.keyPool,
      idPrefix: 'swarm-',
      sharePublishes: o.sharePublishes,
    });
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  const ids = new Set(Array.from({ length: count }, (_, i) => minionId('swarm-', i, count)));
  return { cluster, swarm, cachedir: join(cluster.root, 'var/cache/salt/master'), ids };
}

async function teardown(r: Rig): Promise<void> {
  await r.swarm.stop();
  await r.cluster.stop();
}

/** Resolves when the master's presence snapshot shows every swarm minion connected. */
async function waitPresent(r: Rig, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const present = readPresence(r.cachedir)?.present ?? [];
    let n = 0;
    for (const id of present) if (r.ids.has(id)) n++;
    if (n >= r.ids.size) return;
    if (Date.now() > deadline) throw new Error(`presence shows ${n}/${r.ids.size} swarm minions connected`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/** One `test.ping` to `*`: seconds from the publish to the last return, and how many returned. */
async function ping(r: Rig, timeoutS: number): Promise<{ seconds: number; returns: number }> {
  const { config } = await loadConfig('master', r.cluster.confDir);
  const client = new LocalClient(config);
  await client.listen();
  try {
    const t0 = performance.now();
    const pub = await client.publish({ tgt: '*', fun: 'test.ping', arg: [] });
    let last = t0;
    let returns = 0;
    for await (const got of client.collect(pub, { timeout: timeoutS, gatherJobTimeout: 10 })) {
      if ('ret' in got) {
        returns++;
        last = performance.now();
      }
    }
    return { seconds: (last - t0) / 1000, returns };
  } finally {
    await client.close();
  }
}

/** Resolves once the process tree of `pid` uses less than a tenth of a core over a second (at most `maxS`). */
async function quiet(pid: number, maxS = 30): Promise<void> {
  let prev = treeCpuMs(pid);
  for (let i = 0; i < maxS; i++) {
    await new Promise((res) => setTimeout(res, 1000));
    const now = treeCpuMs(pid);
    if (now - prev < 100) return;
    prev = now;
  }
}

/** Signs `count` minions in to a fresh master, then again after restarting it. */
export async function authStorm(count: number, o: SwarmBenchOptions = {}): Promise<AuthStormResult> {
  const timeoutMs = (o.timeoutS ?? 300) * 1000;
  const r = await rig(count, o);
  try {
    const masterPid = r.cluster.master?.proc.pid ?? 0;
    const cpu0 = cpuSnapshot([masterPid, ...descendants(masterPid)]);
    const server = [...cpu0].find(([, v]) => v.role === 'request-server')?.[0] ?? 0;
    const threads0 = threadCpuMs(server);
    const t0 = performance.now();
    r.swarm.go();
    await r.swarm.waitFor((s) => s.authenticated >= count, timeoutMs);
    const authSeconds = (performance.now() - t0) / 1000;
    await waitPresent(r, timeoutMs);
    const connectedSeconds = (performance.now() - t0) / 1000;
    await quiet(masterPid);
    const signInCpu = cpuDelta(cpu0, cpuSnapshot([...cpu0.keys()]), count);
    const serverThreads = threadCpuDelta(server, threads0, threadCpuMs(server), count);
    const newFile = newFileCpuMs(r.cluster.root);
    o.log?.(
      `auth storm ${count}: authenticated ${authSeconds.toFixed(2)} s, connected ${connectedSeconds.toFixed(2)} s`,
    );

    await r.cluster.master?.stop();
    // a fresh start must be read from a fresh log, and presence from the new publisher
    renameSync(join(r.cluster.root, 'master.log'), join(r.cluster.root, 'master.log.1'));
    rmSync(presencePath(r.cachedir), { force: true });
    const t1 = performance.now();
    await r.cluster.startMaster();
    await waitPresent(r, timeoutMs);
    const restartConnectedSeconds = (performance.now() - t1) / 1000;
    const before = r.swarm.stats().reauths;
    const newMaster = r.cluster.master?.proc.pid ?? 0;
    await quiet(newMaster);
    const pids = [newMaster, ...descendants(newMaster)];
    const c0 = cpuSnapshot(pids);
    const storm = await ping(r, o.timeoutS ?? 300);
    const stats = r.swarm.stats();
    await quiet(newMaster);
    const c1 = cpuSnapshot(pids);
    // the same job again, with no re-auth in it: what the first one cost beyond its re-auths
    const again = await ping(r, o.timeoutS ?? 300);
    await quiet(newMaster);
    const c2 = cpuSnapshot(pids);
    const withReauth = cpuDelta(c0, c1, count);
    const jobOnly = cpuDelta(c1, c2, again.returns || 1);
    const reauthByRole: Record<string, number> = {};
    for (const [role, ms] of Object.entries(withReauth.byRole))
      reauthByRole[role] = ms - (jobOnly.byRole[role] ?? 0);
    o.log?.(
      `after restart: connected ${restartConnectedSeconds.toFixed(2)} s, re-auth + first job ${storm.seconds.toFixed(2)} s (${storm.returns} returns)`,
    );
    return {
      count,
      procs: r.swarm.procs,
      authSeconds,
      connectedSeconds,
      masterCpuMsPerSignIn: signInCpu.total,
      masterCpuByRole: signInCpu.byRole,
      serverThreadsCpuMs: serverThreads,
      newFileCpuMs: newFile,
      restartConnectedSeconds,
      masterCpuMsPerReauth: withReauth.total - jobOnly.total,
      masterCpuByRoleReauth: reauthByRole,
      restartReauthSeconds: storm.seconds,
      restartReturns: storm.returns,
      reauths: stats.reauths - before,
      errors: stats.errors,
      lastError: r.swarm.lastError(),
    };
  } finally {
    await teardown(r);
  }
}

/** `runs` times `test.ping` to all `count` minions, one job at a time. */
export async function fanOut(count: number, runs: number, o: SwarmBenchOptions = {}): Promise<FanOutResult> {
  const timeoutMs = (o.timeoutS ?? 300) * 1000;
  const r = await rig(count, o);
  try {
    r.swarm.go();
    await r.swarm.waitFor((s) => s.authenticated >= count, timeoutMs);
    await waitPresent(r, timeoutMs);
    // the grains reports (`_pillar`) finish after the sign-ins: let the master settle
    await new Promise((res) => setTimeout(res, 2000));
    const first = await ping(r, 60);
    o.log?.(`first test.ping to ${count}: ${first.seconds.toFixed(3)} s, ${first.returns} returns`);
    const seconds: number[] = [];
    const returns: number[] = [];
    const masterPid = r.cluster.master?.proc.pid ?? 0;
    const cpu0 = cpuSnapshot([masterPid, ...descendants(masterPid), ...r.swarm.pids]);
    const server = [...cpu0].find(([, v]) => v.role === 'request-server')?.[0] ?? 0;
    const router0 = cpuMs(server, server);
    const own0 = process.cpuUsage();
    for (let i = 0; i < runs; i++) {
      const one = await ping(r, 60);
      seconds.push(one.seconds);
      returns.push(one.returns);
      o.log?.(`test.ping to ${count}: ${one.seconds.toFixed(3)} s, ${one.returns} returns`);
    }
    const own = process.cpuUsage(own0);
    const routerMs = cpuMs(server, server) - router0;
    const total = returns.reduce((a, b) => a + b, 0) || 1;
    const cpu = cpuDelta(cpu0, cpuSnapshot([...cpu0.keys()]), total / 1000);
    const cpuUsByRole: Record<string, number> = { ...cpu.byRole, client: (own.user + own.system) / total };
    const rss = masterRss(r.cluster.master?.proc.pid ?? 0);
    const pss = treePssMiB(r.cluster.master?.proc.pid ?? 0);
    const pssByRole = treePssByRole(r.cluster.master?.proc.pid ?? 0);
    return {
      count,
      runs,
      firstSeconds: first.seconds,
      firstReturns: first.returns,
      seconds,
      median: median(seconds),
      returns,
      masterRssMiB: rss.mib,
      masterPssMiB: pss.mib,
      masterPssByRole: pssByRole,
      masterProcesses: rss.processes,
      cpuUsPerReturn: cpu.total + (own.user + own.system) / total,
      cpuUsByRole,
      routerUsPerReturn: (routerMs * 1000) / total,
    };
  } finally {
    await teardown(r);
  }
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string, dflt: number): number => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : dflt;
  };
  const count = arg('--count', 1000);
  const runs = arg('--runs', 5);
  const procs = argv.includes('--procs') ? arg('--procs', 1) : undefined;
  const o: SwarmBenchOptions = {
    procs,
    workerThreads: arg('--workers', 5),
    keyPool: argv.includes('--key-pool') ? arg('--key-pool', count) : undefined,
    sharePublishes: !argv.includes('--no-share-publishes'),
    log: (line) => process.stdout.write(`  ${line}\n`),
  };
  const out = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  if (!argv.includes('--no-storm')) {
    const a = await authStorm(count, o);
    out(
      `auth storm, ${count} minions (${a.procs} procs): all authenticated ${a.authSeconds.toFixed(2)} s, all connected ${a.connectedSeconds.toFixed(2)} s`,
    );
    out(
      `after a master restart: all reconnected ${a.restartConnectedSeconds.toFixed(2)} s, re-auth storm + first test.ping ${a.restartReauthSeconds.toFixed(2)} s (${a.restartReturns}/${count} returns, ${a.reauths} re-auths, ${a.errors} errors)`,
    );
    const roles = Object.entries(a.masterCpuByRole).map(([k, v]) => `${k} ${v.toFixed(2)}`);
    out(
      `master CPU per sign-in: ${a.masterCpuMsPerSignIn.toFixed(2)} ms (${roles.join(', ')}); its RSA alone, measured now in one thread: ${masterRsaCpuMs().toFixed(2)} ms; its ${NEW_INODES_PER_SIGN_IN} new files alone, measured after it in the master's folder: ${(a.newFileCpuMs * NEW_INODES_PER_SIGN_IN).toFixed(2)} ms`,
    );
    out(
      `  request server by thread: ${a.serverThreadsCpuMs.map((t) => `${t.label} ${t.ms.toFixed(2)}`).join(', ')}`,
    );
    const reRoles = Object.entries(a.masterCpuByRoleReauth).map(([k, v]) => `${k} ${v.toFixed(2)}`);
    out(
      `master CPU per re-auth after the restart (no new file, no grains report; the first job's CPU less a second job's): ${a.masterCpuMsPerReauth.toFixed(2)} ms (${reRoles.join(', ')})`,
    );
    if (a.lastError) out(`  last swarm error: ${a.lastError}`);
    const floor = await rsaFloor(count);
    out(
      `floor under it: the ${PRIVATE_OPS_PER_MINION} RSA private-key operations of ${count} sign-ins alone take ${floor.seconds.toFixed(2)} s on ${floor.threads} threads`,
    );
  }
  if (!argv.includes('--no-fanout')) {
    const f = await fanOut(count, runs, o);
    out(
      `test.ping to ${count} swarm minions: first ${f.firstSeconds.toFixed(3)} s (${f.firstReturns} returns), then median ${f.median.toFixed(3)} s over ${runs} runs [${f.seconds.map((s) => s.toFixed(3)).join(' ')}], returns [${f.returns.join(' ')}]`,
    );
    const roles = Object.entries(f.cpuUsByRole).map(([k, v]) => `${k} ${v.toFixed(0)}`);
    out(
      `CPU per return over those runs: ${f.cpuUsPerReturn.toFixed(0)} µs (${roles.join(', ')}; the swarm ${o.sharePublishes ? 'opens each publish once per worker' : 'opens each publish in every minion, --no-share-publishes'})`,
    );
    out(
      `the request server's main thread alone: ${f.routerUsPerReturn.toFixed(0)} µs per return, so one thread's floor for 10,000 returns is ${(f.routerUsPerReturn / 100).toFixed(2)} s; all processes on ${availableParallelism()} cores: ${((f.cpuUsPerReturn * 10_000) / 1e6 / availableParallelism()).toFixed(2)} s`,
    );
    out(
      `master RSS with ${count} connected minions: ${f.masterRssMiB.toFixed(0)} MiB, PSS ${f.masterPssMiB.toFixed(0)} MiB (${f.masterProcesses} processes: ${Object.entries(
        f.masterPssByRole,
      )
        .map(([k, v]) => `${k} ${v.toFixed(0)}`)
        .join(', ')})`,
    );
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main(process.argv.slice(2));
}
