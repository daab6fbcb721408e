/**
 * Cluster figures (issue 24, by hand): one master with `count` swarm minions against a cluster of
 * two masters (127.0.0.2, 127.0.0.3) behind a TCP load balancer (about `count / 2` each), both
 * with PostgreSQL as the job cache (and, for the cluster, its backend): the sign-in storm,
 * `test.ping` to every minion published on the first master (seconds to the last return, returns
 * seen), the masters' CPU per return, PostgreSQL's transactions, inserts and CPU while the pings
 * run, and, for the cluster, the time from `kill -9` of one master until every minion answers. Standalone: `node dist/bench/cluster-bench.js --count 1000 [--runs 3]`.
 * `--haproxy N`: the balancer is N HAProxy processes (tools/cluster-haproxy.ts) rather than the
 * in-process one, which holds four descriptors per minion and so stops short of 10,000 minions
 * under this container's 20,000 open files per process.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { LocalClient } from '../client/local-client.js';
import { listKeys } from '../kernel/auth/pki.js';
import { loadConfig } from '../kernel/config/index.js';
import { connectionsTo, Haproxy } from '../tools/cluster-haproxy.js';
import { startPostgres } from '../tools/db-servers.js';
import { Cluster } from '../tools/local-cluster.js';
import { defaultKeysDir, ensureKeys } from '../tools/swarm/key-cache.js';
import { type SwarmHandle, startSwarm } from '../tools/swarm/swarm-runner.js';
import { TcpBalancer } from '../tools/tcp-balancer.js';
import { type CpuSnapshot, cpuDelta, cpuSnapshot, descendants, treeCpuMs } from './proc-stats.js';

const A = '127.0.0.2';
const B = '127.0.0.3';
/** The load balancer in front of the cluster. */
const LB = '127.0.0.4';

/** `seen`: the ids that returned are added to it. */
async function ping(
  confDir: string,
  timeoutS: number,
  seen?: Set<string>,
): Promise<{ seconds: number; returns: number }> {
  const { config } = await loadConfig('master', confDir);
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
        seen?.add(got.id);
        last = performance.now();
      }
    }
    return { seconds: (last - t0) / 1000, returns };
  } finally {
    await client.close();
  }
}

/** The PostgreSQL server listening on `port`: its postmaster's pid, found by its command line. */
function postgresPid(port: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (argv[0]?.endsWith('/postgres') && argv.includes(String(port))) return Number(name);
  }
  return undefined;
}

/** Every process of the masters, the swarm's excluded: the CPU they used, in ms. */
function mastersCpuMs(clusters: readonly Cluster[]): number {
  return clusters.reduce((sum, c) => sum + (c.master?.alive ? treeCpuMs(c.master.proc.pid!) : 0), 0);
}

/** Each master's processes (itself and its children), for a CPU table by role. */
function mastersSnapshot(clusters: readonly Cluster[]): CpuSnapshot[] {
  return clusters.map((c) => {
    const pid = c.master?.alive ? c.master.proc.pid : undefined;
    return cpuSnapshot(pid ? [pid, ...descendants(pid)] : []);
  });
}

/** `A: request-server 310, cluster 120, ...` in µs per return, per master. */
function byRole(before: CpuSnapshot[], after: CpuSnapshot[], returns: number): string {
  return before
    .map((b, i) => {
      const { byRole: roles } = cpuDelta(b, after[i]!, Math.max(1, returns) / 1000);
      const parts = Object.entries(roles)
        .filter(([, us]) => us >= 1)
        .map(([role, us]) => `${role} ${us.toFixed(0)}`);
      return `${'AB'[i]}: ${parts.join(', ')}`;
    })
    .join('; ');
}

/**
 * `masters: 1`: one master, the swarm on it. `masters: 2`: a cluster of two, the swarm behind a
 * TCP load balancer on 127.0.0.4 (Salt 3007's layout: every minion's request and publish
 * connections each go to either master), and at the end master B is killed (SIGKILL): the time
 * until a `test.ping` from A gets every minion's return.
 */
/** Prints a result line now: a run that hangs or fails at its end keeps what it measured. */
const say = (line: string) => console.log(line);

async function run(
  count: number,
  runs: number,
  masters: 1 | 2,
  haproxyProcs = 0,
  logsDir?: string,
): Promise<void> {
  const server = await startPostgres();
  const db = `b${masters}`;
  await server.createDatabase(db);
  const cpki = mkdtempSync(join(tmpdir(), 'tsalt-bench-cpki-'));
  const conn = { host: server.host, port: server.port, user: server.user, db, connect_timeout: 10 };
  const base = (iface: string, id: string) => ({
    id,
    interface: iface,
    auto_accept: true,
    worker_threads: 2,
    master_job_cache: 'postgres',
    postgres: conn,
    ...(masters === 2
      ? {
          cluster_id: 'bench',
          cluster_peers: [A, B],
          cluster_pool_port: 45210,
          cluster_backend: 'postgres',
          cluster_pki_dir: cpki,
        }
      : {}),
  });
  const clusters = [new Cluster({ master: base(A, 'ma'), quiet: true })];
  await clusters[0]!.writeMasterConfig();
  const balancers: TcpBalancer[] = [];
  let haproxy: Haproxy | undefined;
  if (masters === 2) {
    const b = new Cluster({ master: base(B, 'mb'), quiet: true });
    b.publishPort = clusters[0]!.publishPort;
    b.retPort = clusters[0]!.retPort;
    clusters.push(b);
  }
  let swarm: SwarmHandle | undefined;
  const stat = new pg.Client({ host: server.host, port: server.port, user: server.user, database: db });
  try {
    await clusters[0]!.startMaster();
    if (masters === 2) {
      // one master key pair for the cluster
      const pki = (c: Cluster) => join(c.root, 'etc/salt/pki/master');
      mkdirSync(pki(clusters[1]!), { recursive: true, mode: 0o700 });
      for (const f of ['master.pem', 'master.pub'])
        copyFileSync(join(pki(clusters[0]!), f), join(pki(clusters[1]!), f));
      await clusters[1]!.startMaster();
      const ports = [clusters[0]!.retPort, clusters[0]!.publishPort];
      if (haproxyProcs > 0) {
        // each process: its share of two connections per minion, and room for reconnections
        const maxconn = Math.ceil((2 * count) / haproxyProcs) + 1000;
        haproxy = new Haproxy({ host: LB, ports, backends: [A, B], procs: haproxyProcs, maxconn });
        await haproxy.start();
      } else
        for (const port of ports) {
          const lb = new TcpBalancer([
            { host: A, port },
            { host: B, port },
          ]);
          await lb.listen(LB, port);
          balancers.push(lb);
        }
    }
    const keysDir = defaultKeysDir();
    // minions share keys from a pool (as the console bench's do): 10,000 fresh RSA pairs take an hour here
    const keyPool = Math.min(count, 2000);
    await ensureKeys(keysDir, keyPool);
    const t0 = performance.now();
    swarm = await startSwarm({
      count,
      masterHost: masters === 2 ? LB : A,
      retPort: clusters[0]!.retPort,
      keysDir,
      keyPool,
      idPrefix: 's-',
      logLevel: 'error',
    });
    swarm.go();
    await swarm.waitFor((st) => st.authenticated >= count, 1_800_000);
    const signIn = (performance.now() - t0) / 1000;
    // the first master knows every key (the other master's through the cluster) before it publishes
    const pkiA = join(clusters[0]!.root, 'etc/salt/pki/master');
    while ((await listKeys(pkiA)).minions.length < count) await new Promise((r) => setTimeout(r, 200));
    const keysSeen = (performance.now() - t0) / 1000;
    await stat.connect();
    const pgPid = postgresPid(server.port);
    const split = (port: number, i: number) =>
      haproxy ? `${connectionsTo(A, port)}/${connectionsTo(B, port)}` : balancers[i]!.routed.join('/');
    for (const line of [
      masters === 2
        ? `2 masters behind ${haproxy ? `HAProxy (${haproxyProcs} processes)` : 'the in-process TCP balancer'}, ${count} minions (request connections on A/B: ${split(clusters[0]!.retPort, 0)}, publish connections: ${split(clusters[0]!.publishPort, 1)})`
        : `1 master, ${count} minions`,
      `  sign-in storm ${signIn.toFixed(1)} s, every key on the first master at ${keysSeen.toFixed(1)} s`,
    ])
      say(line);
    const first = await ping(clusters[0]!.confDir, 120);
    say(`  first test.ping: ${first.returns}/${count} returns, ${first.seconds.toFixed(2)} s`);
    const counters = async () => {
      const r = await stat.query(
        'SELECT xact_commit, tup_inserted FROM pg_stat_database WHERE datname = $1',
        [db],
      );
      return { tx: Number(r.rows[0].xact_commit), ins: Number(r.rows[0].tup_inserted) };
    };
    for (let k = 0; k < runs; k++) {
      const before = await counters();
      const cpu0 = mastersCpuMs(clusters);
      const roles0 = mastersSnapshot(clusters);
      const pg0 = pgPid ? treeCpuMs(pgPid) : 0;
      const own0 = process.cpuUsage();
      const lbCpu = () => (haproxy?.pids ?? []).reduce((sum, pid) => sum + treeCpuMs(pid), 0);
      const lb0 = lbCpu();
      const t = performance.now();
      const r = await ping(clusters[0]!.confDir, 120);
      const s = (performance.now() - t) / 1000;
      const own = process.cpuUsage(own0);
      const after = await counters();
      const cpu = mastersCpuMs(clusters) - cpu0;
      const roles = byRole(roles0, mastersSnapshot(clusters), r.returns);
      const pgCpu = pgPid ? treeCpuMs(pgPid) - pg0 : Number.NaN;
      const lbShare = ((lbCpu() - lb0) / s / 10).toFixed(0);
      say(
        `  test.ping ${k + 1}: ${r.returns}/${count} returns, last at ${r.seconds.toFixed(2)} s; masters' CPU ${((cpu * 1000) / Math.max(1, r.returns)).toFixed(0)} µs per return; PostgreSQL ${((after.tx - before.tx) / s).toFixed(0)} transactions/s, ${((after.ins - before.ins) / s).toFixed(0)} rows inserted/s, CPU ${(pgCpu / s / 10).toFixed(0)} % of a core` +
          (masters === 2
            ? `; this process (client${haproxy ? '' : ', balancer'}) ${((own.user + own.system) / 1000 / s / 10).toFixed(0)} % of a core${haproxy ? `; HAProxy ${lbShare} % of a core` : ''}`
            : ''),
      );
      say(`    µs per return by process: ${roles}`);
    }
    if (masters === 2) {
      const before = swarm.stats();
      const killed = performance.now();
      await clusters[1]!.master!.stop('SIGKILL');
      // a minion has answered again once it returned to any ping since the kill (one ping to
      // 10,000 may take longer than its timeout on a loaded machine)
      const answered = new Set<string>();
      let tries = 0;
      const since = () => ((performance.now() - killed) / 1000).toFixed(1);
      while (answered.size < count && performance.now() - killed < 900_000) {
        tries++;
        // a master this loaded may not take the publish in time: that is a ping with no return
        const r = await ping(clusters[0]!.confDir, 30, answered).catch((err: Error) => {
          say(`  (a ping after the kill failed: ${err.message})`);
          return { seconds: 0, returns: 0 };
        });
        say(
          `  ping ${tries} after the kill, at ${since()} s: ${r.returns} returns, ${answered.size}/${count} answered since the kill`,
        );
      }
      const st = swarm.stats();
      say(
        `  kill -9 of master B: ${answered.size}/${count} minions answered a test.ping from A within ${since()} s (${tries} pings; since the kill, swarm re-auths ${st.reauths - before.reauths} (publish ${st.reauthsPublish - before.reauthsPublish}, bad load ${st.reauthsBadLoad - before.reauthsBadLoad}, request not decrypted ${st.reauthsDecrypt - before.reauthsDecrypt}), errors ${st.errors - before.errors}; over the whole run ${st.reauths} and ${st.errors})`,
      );
    }
  } finally {
    await stat.end().catch(() => undefined);
    await swarm?.stop().catch(() => undefined);
    for (const lb of balancers) await lb.close();
    await haproxy?.stop();
    if (logsDir) {
      mkdirSync(logsDir, { recursive: true });
      for (const [i, c] of clusters.entries())
        cpSync(join(c.root, 'master.log'), join(logsDir, `${masters}-master-${'ab'[i]}.log`));
    }
    for (const c of clusters) await c.stop().catch(() => undefined);
    await server.destroy();
    rmSync(cpki, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string, def: number) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : def;
  };
  const count = arg('--count', 1000);
  const runs = arg('--runs', 3);
  // --only 1 or --only 2: one of the two set-ups
  const only = arg('--only', 0);
  const haproxyProcs = arg('--haproxy', 0);
  // --logs DIR: the masters' log files are copied there at the end
  const logs = process.argv.includes('--logs') ? process.argv[process.argv.indexOf('--logs') + 1] : undefined;
  if (only !== 2) await run(count, runs, 1, 0, logs);
  if (only !== 1) await run(count, runs, 2, haproxyProcs, logs);
  process.exit(0);
}
