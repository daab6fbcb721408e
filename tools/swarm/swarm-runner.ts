/**
 * The swarm's parent: forks the worker processes (swarm-worker.ts), hands each its range of
 * minions, starts them all at once (`go`), sums their counters, and stops them: `stop()` asks
 * every worker to close its sockets and exit, and kills any that does not within a grace time,
 * so no process is left behind.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_ENC_ALGO, DEFAULT_SIG_ALGO } from '../../kernel/crypt/rsa.js';
import { REPO } from '../local-cluster.js';
import type { GrainsSpread } from './grains-spread.js';
import {
  defaultProcs,
  emptyStats,
  type SwarmStats,
  splitRange,
  sumStats,
  type WorkerAssignment,
  type WorkerMessage,
} from './swarm-protocol.js';

export interface SwarmOptions {
  count: number;
  masterHost: string;
  retPort: number;
  publishPort?: number;
  procs?: number;
  spread?: GrainsSpread;
  keysDir: string;
  keyPool?: number;
  idPrefix?: string;
  authTimeoutMs?: number;
  acceptanceWaitMs?: number;
  returnTimeoutMs?: number;
  returnTries?: number;
  reportGrains?: boolean;
  verifyPublishes?: boolean;
  /** Open each distinct publish once per worker for its minions (default on; shared-publish.ts). */
  sharePublishes?: boolean;
  statsEveryMs?: number;
  logLevel?: string;
}

export interface SwarmHandle {
  readonly procs: number;
  readonly pids: number[];
  /** The latest counters, summed over the workers. */
  stats(): SwarmStats;
  /** The last error a worker reported, if any. */
  lastError(): string | undefined;
  /** Tells every worker to sign its minions in. */
  go(): void;
  /** Resolves when `pred` holds for the summed counters (checked on each report), or rejects after `timeoutMs`. */
  waitFor(pred: (s: SwarmStats) => boolean, timeoutMs: number): Promise<SwarmStats>;
  /** Stops every worker; resolves with the final counters once all have exited. */
  stop(graceMs?: number): Promise<SwarmStats>;
}

/**
 * V8 flags of each swarm worker. A worker's young generation holds the in-flight jobs of its
 * ~2,500 minions; at V8's default (16 MiB semi-spaces) scavenges were a sixth of the swarm's CPU
 * per return. 64 MiB cut that CPU by 8-18% at 2,000 minions (alternating runs: 162-174 against
 * 142-155 µs), for up to ~150 MiB more RSS per worker, which the swarm can afford where the master
 * could not: the swarm stands for machines of its own, and what it takes from the shared cores it
 * takes from the master being measured.
 */
const WORKER_NODE_FLAGS = ['--max-semi-space-size=64'];

/** The compiled worker (vitest runs this file from source: the worker always runs from dist/). */
function workerPath(): string {
  const here = fileURLToPath(new URL('./swarm-worker.js', import.meta.url));
  return existsSync(here) ? here : `${REPO}/dist/tools/swarm/swarm-worker.js`;
}

/** Forks the workers and resolves once every one has built its minions (none has signed in yet). */
export async function startSwarm(o: SwarmOptions): Promise<SwarmHandle> {
  const ranges = splitRange(o.count, o.procs ?? defaultProcs(o.count));
  const latest = new Map<number, SwarmStats>();
  const children: ChildProcess[] = [];
  const watchers = new Set<() => void>();
  let lastError: string | undefined;
  const exited: Promise<void>[] = [];
  const readies: Promise<void>[] = [];
  const path = workerPath();
  ranges.forEach(([from, count], worker) => {
    const child = fork(path, [], {
      execArgv: [...WORKER_NODE_FLAGS, ...process.execArgv],
      env: { ...process.env, TSALT_SWARM_WORKER: String(worker) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    children.push(child);
    latest.set(worker, { ...emptyStats(), minions: count });
    exited.push(new Promise((r) => child.once('exit', () => r())));
    readies.push(
      new Promise((resolve, reject) => {
        child.once('exit', (code) =>
          reject(new Error(`swarm worker ${worker} exited (${code}) before it was ready`)),
        );
        child.on('message', (raw) => {
          const msg = raw as WorkerMessage;
          if (msg.type === 'ready') resolve();
          else if (msg.type === 'stats' || msg.type === 'stopped') {
            latest.set(worker, msg.stats);
            if (msg.type === 'stats' && msg.lastError) lastError = msg.lastError;
            for (const w of watchers) w();
          }
        });
      }),
    );
    const assign: WorkerAssignment = {
      type: 'assign',
      from,
      count,
      total: o.count,
      idPrefix: o.idPrefix ?? 'swarm-',
      masterHost: o.masterHost,
      retPort: o.retPort,
      publishPort: o.publishPort,
      keysDir: o.keysDir,
      keyPool: o.keyPool,
      spread: o.spread ?? [],
      authTimeoutMs: o.authTimeoutMs ?? 60_000,
      acceptanceWaitMs: o.acceptanceWaitMs ?? 10_000,
      returnTimeoutMs: o.returnTimeoutMs ?? 30_000,
      returnTries: o.returnTries ?? 3,
      reportGrains: o.reportGrains ?? true,
      verifyPublishes: o.verifyPublishes ?? false,
      sharePublishes: o.sharePublishes ?? true,
      encAlgo: DEFAULT_ENC_ALGO,
      sigAlgo: DEFAULT_SIG_ALGO,
      statsEveryMs: o.statsEveryMs ?? 200,
      logLevel: o.logLevel ?? 'warning',
    };
    child.send(assign);
  });
  const kill = (): void => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };
  try {
    await Promise.all(readies);
  } catch (err) {
    kill();
    throw err;
  }
  const stats = (): SwarmStats => sumStats(latest.values());
  let stopping: Promise<SwarmStats> | undefined;
  return {
    procs: children.length,
    pids: children.map((c) => c.pid ?? 0),
    stats,
    lastError: () => lastError,
    go() {
      for (const c of children) if (c.connected) c.send({ type: 'go' });
    },
    waitFor(pred, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const s = stats();
          if (!pred(s)) return;
          cleanup();
          resolve(s);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`swarm: timed out after ${timeoutMs} ms (${JSON.stringify(stats())})`));
        }, timeoutMs);
        const cleanup = (): void => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        check();
      });
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        for (const c of children) if (c.connected) c.send({ type: 'stop' });
        const timer = setTimeout(kill, graceMs);
        await Promise.all(exited);
        clearTimeout(timer);
        return stats();
      })();
      return stopping;
    },
  };
}
