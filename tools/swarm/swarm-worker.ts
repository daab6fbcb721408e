/**
 * A swarm worker process: hosts a range of simulated minions on one event loop, each with its
 * own sockets. Driven over IPC by the swarm parent (swarm-protocol.ts): `assign` builds the
 * minions (keys from the cache, core grains computed once and specialised per minion), `go`
 * signs them all in at once, `stop` (or the parent going away) closes every socket and exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig } from '../../kernel/config/resolve.js';
import { createModuleLoader } from '../../kernel/loader/index.js';
import { createLogger } from '../../kernel/log.js';
import { coreGrains, mergeGrains, serverId } from '../../minion/grains.js';
import { BUILTIN_DIRS } from '../../plugins/builtin-dirs.js';
import { minionId, spreadGrains } from './grains-spread.js';
import { loadKeys } from './key-cache.js';
import { SharedPublishes } from './shared-publish.js';
import { SwarmMinion, type SwarmShared } from './swarm-minion.js';
import {
  emptyStats,
  type ParentMessage,
  type WorkerAssignment,
  type WorkerMessage,
} from './swarm-protocol.js';

const worker = Number(process.env.TSALT_SWARM_WORKER ?? 0);
const stats = emptyStats();
let minions: SwarmMinion[] = [];
let lastError: string | undefined;
let pkiDir: string | undefined;
let statsTimer: NodeJS.Timeout | undefined;
let stopping: Promise<void> | undefined;

function send(msg: WorkerMessage): void {
  if (process.connected) process.send?.(msg);
}

function build(a: WorkerAssignment): void {
  const log = createLogger({ name: `swarm-worker-${worker}`, level: a.logLevel });
  pkiDir = mkdtempSync(join(tmpdir(), 'tsalt-swarm-pki-'));
  const { config } = resolveConfig(
    'minion',
    { id: 'swarm', master: a.masterHost, master_port: a.retPort, root_dir: pkiDir, multiprocessing: false },
    { label: 'swarm' },
  );
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const base = coreGrains('swarm', a.masterHost, {});
  const loader = createModuleLoader({
    dirs: [],
    builtinDirs: [BUILTIN_DIRS.modules],
    virtualContext: { opts, grains: base },
    log,
  });
  const shared: SwarmShared = {
    masterHost: a.masterHost,
    retPort: a.retPort,
    publishPort: a.publishPort,
    pkiDir,
    encAlgo: a.encAlgo,
    sigAlgo: a.sigAlgo,
    authTimeoutMs: a.authTimeoutMs,
    acceptanceWaitMs: a.acceptanceWaitMs,
    returnTimeoutMs: a.returnTimeoutMs,
    returnTries: a.returnTries,
    reportGrains: a.reportGrains,
    verifyPublishes: a.verifyPublishes,
    publishes: a.sharePublishes ? new SharedPublishes() : undefined,
    loader,
    opts,
    log,
    stats,
    onError(message) {
      lastError = message;
      log.debug(message);
    },
  };
  const keys = loadKeys(a.keysDir, a.from, a.count, a.keyPool);
  minions = keys.map((k, i) => {
    const index = a.from + i;
    const id = minionId(a.idPrefix, index, a.total);
    const grains = mergeGrains(
      { ...base, id, server_id: serverId(id) },
      spreadGrains(a.spread, index),
      false,
    );
    return new SwarmMinion(id, k, grains, shared);
  });
  stats.minions = minions.length;
  statsTimer = setInterval(() => send({ type: 'stats', worker, stats, lastError }), a.statsEveryMs);
  send({ type: 'ready', worker });
}

async function go(): Promise<void> {
  const [first, ...rest] = minions;
  if (!first) return;
  // the first sign-in writes minion_master.pub, which every other minion of this worker reads
  const failed = (m: SwarmMinion) => (err: Error) => {
    if (stopping) return;
    stats.errors++;
    lastError = `${m.id}: could not start: ${err.message}`;
  };
  await first.start().catch(failed(first));
  await Promise.all(rest.map((m) => m.start().catch(failed(m))));
}

function stop(): Promise<void> {
  stopping ??= (async () => {
    if (statsTimer) clearInterval(statsTimer);
    await Promise.all(minions.map((m) => m.stop()));
    if (pkiDir) rmSync(pkiDir, { recursive: true, force: true });
    send({ type: 'stopped', worker, stats });
    process.disconnect?.();
    // sockets are closed with linger 0: nothing is left to flush
    setTimeout(() => process.exit(0), 50).unref();
  })();
  return stopping;
}

process.on('message', (raw) => {
  const msg = raw as ParentMessage;
  if (msg.type === 'assign') build(msg);
  else if (msg.type === 'go') void go();
  else if (msg.type === 'stop') void stop();
});
// the parent went away (killed): do not linger as an orphan
process.on('disconnect', () => void stop());
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => void stop());
