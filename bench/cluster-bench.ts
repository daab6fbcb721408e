/**
 * Cluster figures (issue 24, by hand): one master with `count` swarm minions against a cluster of
 * two masters (127.0.0.2, 127.0.0.3) with `count / 2` each, both with PostgreSQL as the job cache
 * (and, for the cluster, its backend): the sign-in storm, `test.ping` to every minion published on
 * the first master (seconds to the last return, returns seen), and the PostgreSQL transactions
 * per second while the pings run. Standalone: `node dist/bench/cluster-bench.js --count 1000 [--runs 3]`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { LocalClient } from '../client/local-client.js';
import { listKeys } from '../kernel/auth/pki.js';
import { loadConfig } from '../kernel/config/index.js';
import { startPostgres } from '../tools/db-servers.js';
import { Cluster } from '../tools/local-cluster.js';
import { defaultKeysDir, ensureKeys } from '../tools/swarm/key-cache.js';
import { type SwarmHandle, startSwarm } from '../tools/swarm/swarm-runner.js';

const A = '127.0.0.2';
const B = '127.0.0.3';

async function ping(confDir: string, timeoutS: number): Promise<{ seconds: number; returns: number }> {
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
        last = performance.now();
      }
    }
    return { seconds: (last - t0) / 1000, returns };
  } finally {
    await client.close();
  }
}

async function run(count: number, runs: number, masters: 1 | 2): Promise<string> {
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
  if (masters === 2) {
    const b = new Cluster({ master: base(B, 'mb'), quiet: true });
    b.publishPort = clusters[0]!.publishPort;
    b.retPort = clusters[0]!.retPort;
    clusters.push(b);
  }
  const swarms: SwarmHandle[] = [];
  const stat = new pg.Client({ host: server.host, port: server.port, user: server.user, database: db });
  try {
    for (const c of clusters) await c.startMaster();
    const keysDir = defaultKeysDir();
    await ensureKeys(keysDir, count);
    const per = count / masters;
    const t0 = performance.now();
    for (const [i, c] of clusters.entries()) {
      const s = await startSwarm({
        count: per,
        masterHost: i === 0 ? A : B,
        retPort: c.retPort,
        keysDir,
        idPrefix: `s${i}-`,
        logLevel: 'error',
      });
      swarms.push(s);
      s.go();
    }
    await Promise.all(swarms.map((s) => s.waitFor((st) => st.authenticated >= per, 600_000)));
    const signIn = (performance.now() - t0) / 1000;
    // the first master knows every key (the other master's through the cluster) before it publishes
    const pkiA = join(clusters[0]!.root, 'etc/salt/pki/master');
    while ((await listKeys(pkiA)).minions.length < count) await new Promise((r) => setTimeout(r, 200));
    const keysSeen = (performance.now() - t0) / 1000;
    await stat.connect();
    const lines = [
      `${masters} master(s) × ${per} minions: sign-in storm ${signIn.toFixed(1)} s, every key on the first master at ${keysSeen.toFixed(1)} s`,
    ];
    const first = await ping(clusters[0]!.confDir, 120);
    lines.push(`  first test.ping: ${first.returns}/${count} returns, ${first.seconds.toFixed(2)} s`);
    const tx = async () =>
      Number(
        (await stat.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [db])).rows[0]
          .xact_commit,
      );
    for (let k = 0; k < runs; k++) {
      const before = await tx();
      const t = performance.now();
      const r = await ping(clusters[0]!.confDir, 120);
      const s = (performance.now() - t) / 1000;
      const after = await tx();
      lines.push(
        `  test.ping ${k + 1}: ${r.returns}/${count} returns, last at ${r.seconds.toFixed(2)} s; PostgreSQL ${((after - before) / s).toFixed(0)} transactions/s`,
      );
    }
    return lines.join('\n');
  } finally {
    await stat.end().catch(() => undefined);
    for (const s of swarms) await s.stop().catch(() => undefined);
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
  console.log(await run(count, runs, 1));
  console.log(await run(count, runs, 2));
}
