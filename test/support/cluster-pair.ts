/**
 * Two tsalt masters as one cluster for integration tests: on 127.0.0.2 and 127.0.0.3, the same
 * ports on each (as on two hosts), one master key pair, their shared state in a private
 * PostgreSQL database (tools/db-servers.ts).
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresTestServer } from '../../tools/db-servers.js';
import { Cluster } from '../../tools/local-cluster.js';

export const A = '127.0.0.2';
export const B = '127.0.0.3';

/** A port free on `host` now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** What `probe` gives once it gives something (a throw counts as nothing yet). */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe().catch(() => undefined);
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/**
 * Master A's and master B's clusters (`configA`, `configB`) on the same ports; A is started,
 * B has A's key pair (as Salt's multi-master asks) and is left to start.
 */
export async function twoMasters(
  configA: Record<string, unknown>,
  configB: Record<string, unknown>,
): Promise<{ a: Cluster; b: Cluster }> {
  const a = new Cluster({ master: configA });
  await a.writeMasterConfig();
  const b = new Cluster({ master: configB });
  b.publishPort = a.publishPort;
  b.retPort = a.retPort;
  await a.startMaster();
  const pkiB = join(b.root, 'etc/salt/pki/master');
  mkdirSync(pkiB, { recursive: true, mode: 0o700 });
  for (const f of ['master.pem', 'master.pub'])
    copyFileSync(join(a.root, 'etc/salt/pki/master', f), join(pkiB, f));
  return { a, b };
}

export interface ClusterPair {
  a: Cluster;
  b: Cluster;
  /** Stops both masters (and their minions) and removes the shared key folder. */
  stop(): Promise<void>;
}

/**
 * Starts masters `master-a` on A and `master-b` on B in cluster `cluster` on database `db` of
 * `pg` (made here), each with `extra` in its config; resolves once they are peers.
 */
export async function startClusterPair(
  pg: PostgresTestServer,
  db: string,
  extra: Record<string, unknown> = {},
): Promise<ClusterPair> {
  await pg.createDatabase(db);
  const clusterPki = mkdtempSync(join(tmpdir(), 'tsalt-cluster-pki-'));
  const pool = await freePort(A);
  const config = (iface: string, id: string): Record<string, unknown> => {
    const conn = {
      host: pg.host,
      port: pg.port,
      user: pg.user,
      db,
      connect_timeout: 10,
      retry_interval: 0.5,
    };
    return {
      id,
      interface: iface,
      master_job_cache: 'postgres',
      postgres: conn,
      cluster_id: db,
      cluster_peers: [A, B],
      cluster_pool_port: pool,
      cluster_pki_dir: clusterPki,
      cluster_backend: 'postgres',
      cluster_sync_interval: 0.5,
      ...extra,
    };
  };
  const { a, b } = await twoMasters(config(A, 'master-a'), config(B, 'master-b'));
  await b.startMaster();
  await Promise.all([
    a.master!.waitFor('cluster peer connected'),
    b.master!.waitFor('cluster peer connected'),
  ]);
  return {
    a,
    b,
    async stop() {
      for (const c of [b, a]) await c.stop().catch(() => undefined);
      rmSync(clusterPki, { recursive: true, force: true });
    },
  };
}
