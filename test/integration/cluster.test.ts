/**
 * Two masters as one cluster (plugins/cluster, docs/cluster.md) on 127.0.0.2 and 127.0.0.3, the
 * same ports on each as on two hosts, their shared state in a private PostgreSQL: keys accepted
 * on one are accepted on the other, a job from either master reaches the minions of both and
 * every return is seen from both, and peers that are not peers are refused.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodePeerFrame } from '../../plugins/cluster/peer-frame.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../tools/db-servers.js';
import { Cluster, Daemon } from '../../tools/local-cluster.js';
import { A, B, freePort, until } from '../support/cluster-pair.js';

/** Listed as a peer, never started: the others keep serving. */
const SILENT = '127.0.0.9';
/** Each minion sends this mine function to its own master at its start. */
const MINED = { mine_functions: { 'test.echo': ['mined'] } };

/** Sends raw bytes to host:port from `from`, and waits until the other end closes. */
function sendFrom(from: string, host: string, port: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, localAddress: from }, () => socket.write(bytes));
    socket.on('error', () => resolve());
    socket.on('close', () => resolve());
    socket.setTimeout(20_000, () => socket.destroy());
  });
}

describe.skipIf(SKIP_DB_TESTS)('a cluster of two masters on PostgreSQL', () => {
  let pg: PostgresTestServer;
  let pool = 0;
  const clusterPki = mkdtempSync(join(tmpdir(), 'tsalt-cluster-pki-'));
  const masters: Record<'a' | 'b', Cluster> = {} as Record<'a' | 'b', Cluster>;
  const extra: Cluster[] = [];

  function clusterConfig(iface: string, id: string, pkiDir = clusterPki): Record<string, unknown> {
    const conn = {
      host: pg.host,
      port: pg.port,
      user: pg.user,
      db: 'cluster',
      connect_timeout: 10,
      retry_interval: 0.5,
    };
    return {
      id,
      interface: iface,
      auto_accept: false,
      master_job_cache: 'postgres',
      postgres: conn,
      cluster_id: 'it',
      cluster_peers: [A, B, SILENT],
      cluster_pool_port: pool,
      cluster_pki_dir: pkiDir,
      cluster_backend: 'postgres',
      cluster_sync_interval: 0.5,
    };
  }

  beforeAll(async () => {
    pg = await startPostgres();
    await pg.createDatabase('cluster');
    pool = await freePort(A);
    masters.a = new Cluster({ master: clusterConfig(A, 'master-a') });
    await masters.a.writeMasterConfig();
    masters.b = new Cluster({ master: clusterConfig(B, 'master-b') });
    // the same ports on each address, as on two hosts
    masters.b.publishPort = masters.a.publishPort;
    masters.b.retPort = masters.a.retPort;
    // one master key pair for the cluster, as Salt's multi-master asks: a failover minion checks
    // the key of every master it signs in to against the one it cached
    await masters.a.startMaster();
    const pkiA = join(masters.a.root, 'etc/salt/pki/master');
    const pkiB = join(masters.b.root, 'etc/salt/pki/master');
    mkdirSync(pkiB, { recursive: true, mode: 0o700 });
    for (const f of ['master.pem', 'master.pub']) copyFileSync(join(pkiA, f), join(pkiB, f));
    await masters.b.startMaster();
    await Promise.all([
      masters.a.master!.waitFor('cluster peer connected'),
      masters.b.master!.waitFor('cluster peer connected'),
    ]);
  }, 120_000);

  afterAll(async () => {
    for (const c of [...extra, masters.b, masters.a]) await c?.stop().catch(() => undefined);
    await pg?.destroy();
    rmSync(clusterPki, { recursive: true, force: true });
  }, 120_000);

  const keys = async (c: Cluster): Promise<Record<string, string[]>> =>
    JSON.parse((await c.saltKey(['-L', '--out', 'json'])).stdout) as Record<string, string[]>;

  it('a key pending on one master is pending on the other, and salt-key on either accepts it for both', async () => {
    const ma = await masters.a.startMinion('ca1', { master: A, ...MINED }, false);
    const mb = await masters.b.startMinion('cb1', { master: B, ...MINED }, false);
    // each minion signed in to its own master only; the other master learns its key
    await until('ca1 pending on B', async () =>
      (await keys(masters.b)).minions_pre?.includes('ca1') ? true : undefined,
    );
    await until('cb1 pending on A', async () =>
      (await keys(masters.a)).minions_pre?.includes('cb1') ? true : undefined,
    );
    // accepted on the master the minion does not talk to
    expect((await masters.b.saltKey(['-a', 'ca1', '-y'])).stdout).toContain('Key for minion ca1 accepted.');
    expect((await masters.a.saltKey(['-a', 'cb1', '-y'])).stdout).toContain('Key for minion cb1 accepted.');
    await Promise.all([ma.waitFor('salt-minion started', 60_000), mb.waitFor('salt-minion started', 60_000)]);
    for (const c of [masters.a, masters.b]) {
      const listed = await until('both accepted', async () => {
        const l = await keys(c);
        return l.minions?.length === 2 ? l : undefined;
      });
      expect(listed).toMatchObject({ minions: ['ca1', 'cb1'], minions_pre: [], minions_rejected: [] });
    }
  }, 120_000);

  it('a job from either master reaches the minions of both, and returns reach the publishing client', async () => {
    for (const c of [masters.a, masters.b]) {
      const r = await c.saltJson(['*', 'test.echo', 'hello', '-t', '30']);
      expect(r.data).toEqual({ ca1: 'hello', cb1: 'hello' });
    }
    // each minion reported its grains to its own master; the other master has them too
    for (const [c, other] of [
      [masters.a, 'cb1'],
      [masters.b, 'ca1'],
    ] as const) {
      await until(`${other}'s data cache entry on the other master`, async () =>
        existsSync(join(c.root, 'var/cache/salt/master/minions', other, 'data.p')) ? true : undefined,
      );
      const g = await c.saltJson(['-G', `id:${other}`, 'test.echo', 'grain', '-t', '30']);
      expect(g.data).toEqual({ [other]: 'grain' });
    }
    // and the mine: a minion of A reads what a minion of B sent to B
    const mine = await until('the mine of both minions on A', async () => {
      const r = await masters.a.saltJson(['ca1', 'mine.get', '*', 'test.echo', '-t', '30']);
      const got = r.data.ca1 as Record<string, unknown> | undefined;
      return got && Object.keys(got).length === 2 ? got : undefined;
    });
    expect(mine).toEqual({ ca1: 'mined', cb1: 'mined' });
  }, 120_000);

  it('jobs.lookup_jid on either master sees every return, manage.up lists the minions of both', async () => {
    const pub = await masters.a.salt(['--out', 'json', '-v', '*', 'test.echo', 'lookup', '-t', '30']);
    const jid = /jid (\d{20})/.exec(pub.stdout + pub.stderr)?.[1];
    expect(jid, pub.stdout + pub.stderr).toBeDefined();
    for (const c of [masters.b, masters.a]) {
      const seen = await until('both returns in the job cache', async () => {
        const r = await c.saltRun(['--out', 'json', 'jobs.lookup_jid', jid!]);
        const data = JSON.parse(r.stdout) as Record<string, unknown>;
        return Object.keys(data).length === 2 ? data : undefined;
      });
      expect(seen).toEqual({ ca1: 'lookup', cb1: 'lookup' });
    }
    for (const c of [masters.a, masters.b]) {
      const up = await c.saltRun(['--out', 'json', 'manage.up', 'timeout=20']);
      expect(JSON.parse(up.stdout)).toEqual(['ca1', 'cb1']);
    }
  }, 180_000);

  it('PostgreSQL stopped and started: a key accepted meanwhile reaches the other master once it is back', async () => {
    await pg.stop();
    try {
      const m = await masters.b.startMinion('cd1', { master: B }, false);
      await until('cd1 pending on B', async () =>
        (await keys(masters.b)).minions_pre?.includes('cd1') ? true : undefined,
      );
      expect((await masters.b.saltKey(['-a', 'cd1', '-y'])).stdout).toContain('Key for minion cd1 accepted.');
      await m.waitFor('salt-minion started', 60_000);
      await masters.b.master!.waitFor('CLUSTER_ERR_BACKEND');
      expect((await keys(masters.a)).minions).toEqual(['ca1', 'cb1']);
    } finally {
      await pg.start();
    }
    await until('cd1 accepted on A', async () =>
      (await keys(masters.a)).minions?.includes('cd1') ? true : undefined,
    );
    const r = await masters.a.saltJson(['*', 'test.ping', '-t', '30']);
    expect(r.data).toEqual({ ca1: true, cb1: true, cd1: true });
  }, 180_000);

  it('refuses a connection from outside cluster_peers and a message signed with another key', async () => {
    const forged = encodePeerFrame(Buffer.alloc(32, 7), {
      cluster: 'it',
      from: 'master-b',
      kind: 'publish',
      body: {
        load: {
          fun: 'test.echo',
          arg: ['forged'],
          tgt: '*',
          tgt_type: 'glob',
          jid: '20260101000000000001',
          ret: '',
          user: 'root',
        },
      },
    });
    // not a peer's address
    await sendFrom('127.0.0.1', A, pool, forged);
    await masters.a.master!.waitFor(
      /CLUSTER_ERR_PEER_REFUSED.*|refused: the address is not in cluster_peers/,
    );
    // a peer's address, another cluster key
    await sendFrom(B, A, pool, forged);
    await masters.a.master!.waitFor(/refused: bad signature/);
    // the cluster goes on serving
    const r = await masters.a.saltJson(['*', 'test.ping', '-t', '30']);
    expect(r.data).toEqual({ ca1: true, cb1: true, cd1: true });
    expect(masters.a.master!.out).not.toContain('20260101000000000001');
  }, 120_000);

  it('a second master with an id the cluster already has refuses to start', async () => {
    const c = new Cluster({ master: clusterConfig('127.0.0.4', 'master-a') });
    extra.push(c);
    await c.writeMasterConfig();
    const d = new Daemon('dup', 'salt-master', ['-c', c.confDir]);
    c.master = d;
    const code = await until(
      'the duplicate to exit',
      async () => (d.alive ? undefined : d.proc.exitCode),
      60_000,
    );
    expect(code).not.toBe(0);
    expect(d.out).toContain('CLUSTER_ERR_DUPLICATE_ID');
  }, 120_000);
  it('kill -9 of a master mid-job: its failover minion moves to the other, the return is kept, and it fails back', async () => {
    const m = await masters.a.startMinion(
      'cf1',
      {
        master: [A, B],
        master_type: 'failover',
        master_alive_interval: 2,
        master_failback: true,
        master_failback_interval: 2,
      },
      false,
    );
    await until('cf1 pending on A', async () =>
      (await keys(masters.a)).minions_pre?.includes('cf1') ? true : undefined,
    );
    await masters.a.saltKey(['-a', 'cf1', '-y']);
    await m.waitFor('salt-minion started', 60_000);
    expect(m.out).toContain(`tcp://${A}:`);
    const async = await masters.a.salt(['--async', 'cf1', 'test.sleep', '12']);
    const jid = /(\d{20})/.exec(async.stdout)?.[1];
    expect(jid, async.stdout + async.stderr).toBeDefined();
    await m.waitFor(jid!, 30_000);
    const killedAt = Date.now();
    await masters.a.master!.stop('SIGKILL');
    await m.waitFor(`master failover: now connected to ${B}`, 60_000);
    // master_alive_interval (2 s) plus a few seconds, on a loaded machine
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect((await masters.b.saltJson(['cf1', 'test.ping', '-t', '30'])).data).toEqual({ cf1: true });
    // the job A published before it died returned to B, into the shared job cache
    const seen = await until('the return of the job A published', async () => {
      const r = await masters.b.saltRun(['--out', 'json', 'jobs.lookup_jid', jid!]);
      const data = JSON.parse(r.stdout) as Record<string, unknown>;
      return 'cf1' in data ? data : undefined;
    });
    expect(seen).toEqual({ cf1: true });
    // A comes back: the minion goes back to the first master of its list
    await masters.a.startMaster();
    await m.waitFor(`master failback: now connected to ${A}`, 90_000).catch((err: Error) => {
      throw new Error(`${err.message}\n--- master A ---\n${masters.a.master!.out.slice(-4000)}`);
    });
    expect((await masters.a.saltJson(['cf1', 'test.ping', '-t', '30'])).data).toEqual({ cf1: true });
  }, 240_000);
});
