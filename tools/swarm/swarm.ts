/**
 * `node dist/tools/swarm/swarm.js --count N --master HOST ...`: a light minion swarm (the idea
 * of Salt's tests/minionswarm.py, without a process per minion). See tools/swarm/README.md.
 */
import { Command, InvalidArgumentError } from 'commander';
import { parseSpread } from './grains-spread.js';
import { defaultKeysDir, ensureKeys } from './key-cache.js';
import { defaultProcs, formatStats } from './swarm-protocol.js';
import { startSwarm } from './swarm-runner.js';

function int(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('not a whole number');
  return n;
}

function collect(value: string, prev: string[]): string[] {
  return [...prev, value];
}

const program = new Command('swarm')
  .description('simulated tsalt/Salt minions, many per process, each a full protocol peer')
  .requiredOption('-n, --count <n>', 'number of minions', int)
  .option('-m, --master <host>', 'master host', '127.0.0.1')
  .option('--ret-port <port>', "the master's ret_port", int, 4506)
  .option('--publish-port <port>', 'publish port (default: the one the master announces)', int)
  .option('--procs <n>', 'worker processes (default: one per 2,500 minions)', int)
  .option('--grains-spread <key=v1,v2>', 'grain values spread over the minions (repeatable)', collect, [])
  .option('--keys-dir <dir>', 'RSA key cache', defaultKeysDir())
  .option('--key-pool <n>', 'distinct RSA keys (minion i uses key i mod n; default: one per minion)', int)
  .option('--id-prefix <prefix>', 'minion id prefix', 'swarm-')
  .option('--duration <s>', 'stop after this many seconds (default: until SIGINT/SIGTERM)', int)
  .option('--auth-timeout <s>', 'seconds to wait for one sign-in reply', int, 60)
  .option('--acceptance-wait <s>', 'seconds between sign-ins while the key is pending', int, 10)
  .option('--no-grains-report', 'do not send the start-up `_pillar` request that reports grains')
  .option('--verify-publishes', "check the master's signature on publishes (sign_pub_messages)")
  .option('--no-share-publishes', 'each minion opens every publish itself (default: once per worker process)')
  .option('--every <s>', 'seconds between summary lines', int, 5)
  .option('--log-level <level>', "workers' console log level", 'warning');

program.parse();
const o = program.opts<{
  count: number;
  master: string;
  retPort: number;
  publishPort?: number;
  procs?: number;
  grainsSpread: string[];
  keysDir: string;
  keyPool?: number;
  idPrefix: string;
  duration?: number;
  authTimeout: number;
  acceptanceWait: number;
  grainsReport: boolean;
  verifyPublishes?: boolean;
  sharePublishes: boolean;
  every: number;
  logLevel: string;
}>();

const out = (line: string): void => {
  process.stdout.write(`[${new Date().toISOString().slice(11, 23)}] ${line}\n`);
};
const spread = parseSpread(o.grainsSpread);
const made = await ensureKeys(o.keysDir, Math.min(o.count, o.keyPool || o.count), {
  onProgress: (n, total) => out(`generating RSA keys: ${n}/${total}`),
});
if (made) out(`generated ${made} RSA keys in ${o.keysDir}`);
const procs = o.procs || defaultProcs(o.count);
const t0 = Date.now();
const swarm = await startSwarm({
  count: o.count,
  masterHost: o.master,
  retPort: o.retPort,
  publishPort: o.publishPort,
  procs,
  spread,
  keysDir: o.keysDir,
  keyPool: o.keyPool || undefined,
  idPrefix: o.idPrefix,
  authTimeoutMs: o.authTimeout * 1000,
  acceptanceWaitMs: o.acceptanceWait * 1000,
  reportGrains: o.grainsReport,
  verifyPublishes: o.verifyPublishes ?? false,
  sharePublishes: o.sharePublishes,
  logLevel: o.logLevel,
});
out(
  `${o.count} minions built in ${swarm.procs} processes (${Date.now() - t0} ms); signing in to ${o.master}:${o.retPort}`,
);
const tGo = Date.now();
swarm.go();
void swarm
  .waitFor((s) => s.authenticated >= o.count, 24 * 3600_000)
  .then(() => out(`all ${o.count} minions authenticated in ${((Date.now() - tGo) / 1000).toFixed(2)} s`))
  .catch(() => undefined);
const ticker = setInterval(() => {
  out(formatStats(swarm.stats(), swarm.procs));
  const err = swarm.lastError();
  if (err) out(`  last error: ${err}`);
}, o.every * 1000);

let stopping = false;
async function shutdown(why: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(ticker);
  out(`stopping (${why})`);
  const final = await swarm.stop();
  out(`final: ${formatStats(final, swarm.procs)}`);
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
if (o.duration) setTimeout(() => void shutdown(`${o.duration} s elapsed`), o.duration * 1000);
