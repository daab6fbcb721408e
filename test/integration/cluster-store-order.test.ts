/**
 * The cluster's change feed in a real PostgreSQL (plugins/cluster/cluster-store.ts, key-sync.ts):
 * a change numbered while another master's lower-numbered change is still in flight waits for it,
 * so a master reading `version > n` never skips one; and a master does not apply its own recorded
 * key state again after a `salt-key -a` made here (the key went back to pending: the minion was
 * told "pending" for ever after its key was accepted).
 */
import { generateKeyPairSync } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyManager } from '../../kernel/services.js';
import { ClusterStore, WRITE_LOCK } from '../../plugins/cluster/cluster-store.js';
import { KeySync } from '../../plugins/cluster/key-sync.js';
import { SecretSync } from '../../plugins/cluster/secret-sync.js';
import { postgresOptions } from '../../returners/postgres/options.js';
import { type PostgresTestServer, SKIP_DB_TESTS, startPostgres } from '../../tools/db-servers.js';

describe.skipIf(SKIP_DB_TESTS)('the cluster store on PostgreSQL', () => {
  let server: PostgresTestServer;
  const stores: ClusterStore[] = [];
  const dirs: string[] = [];

  const store = (): ClusterStore => {
    const s = new ClusterStore(
      postgresOptions.parse({ host: server.host, port: server.port, user: server.user, db: 'order' }),
      'it',
      () => undefined,
    );
    stores.push(s);
    return s;
  };

  const master = (s: ClusterStore, origin: string) => {
    const root = mkdtempSync(join(tmpdir(), 'tsalt-keysync-'));
    dirs.push(root);
    const pkiDir = join(root, 'pki');
    const cachedir = join(root, 'cache');
    for (const d of ['minions', 'minions_pre', 'minions_rejected', 'minions_denied'])
      mkdirSync(join(pkiDir, d), { recursive: true });
    mkdirSync(cachedir, { recursive: true });
    const keys = new KeyManager({ pkiDir, cachedir, rotateAesKey: false });
    return { pkiDir, keys, sync: new KeySync({ pkiDir, store: s, keys, origin }) };
  };

  beforeAll(async () => {
    server = await startPostgres();
    await server.createDatabase('order');
  }, 120_000);

  afterAll(async () => {
    for (const s of stores) await s.close();
    await server?.destroy();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a change numbered after one still in flight becomes visible only after it', async () => {
    const a = store();
    await a.ready();
    // another master's write, numbered and not yet committed
    const other = new pg.Client({
      host: server.host,
      port: server.port,
      user: server.user,
      database: 'order',
    });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(${WRITE_LOCK})`);
      await other.query(
        `INSERT INTO tsalt_cluster_secrets (cluster, name, data, version, origin)
         VALUES ('it', 'session/first', '\\x00', nextval('tsalt_cluster_key_version'), 'b')`,
      );
      const second = a.putSecret('session/second', Buffer.from([1]), 'a');
      await Promise.race([second, sleep(2000)]);
      // a reader now must not see the second without the first
      expect((await a.secretsSince(0)).map((r) => r.name)).toEqual([]);
      await other.query('COMMIT');
      await second;
      expect((await a.secretsSince(0)).map((r) => r.name)).toEqual(['session/first', 'session/second']);
    } finally {
      await other.end();
    }
  }, 60_000);

  it("a key accepted here after its pending state was recorded is not moved back by this master's own row", async () => {
    const here = master(store(), 'master-a');
    const peer = master(store(), 'master-b');
    const pub = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
      type: 'spki',
      format: 'pem',
    });
    // a sign-in here left the key pending; the round records it (its row is not read back yet)
    writeFileSync(join(here.pkiDir, 'minions_pre', 'k1'), pub);
    await here.sync.round();
    await here.sync.round();
    // a new pending key recorded, and at once `salt-key -a` here, before the next round reads that row
    writeFileSync(join(here.pkiDir, 'minions_pre', 'k2'), pub);
    await here.sync.round();
    await here.keys.accept([
      { id: 'k1', state: 'pending' },
      { id: 'k2', state: 'pending' },
    ]);
    await here.sync.round();
    await here.sync.round();
    expect(readdirSync(join(here.pkiDir, 'minions')).sort()).toEqual(['k1', 'k2']);
    expect(readdirSync(join(here.pkiDir, 'minions_pre'))).toEqual([]);
    // and the other master follows
    await peer.sync.round();
    expect(readdirSync(join(peer.pkiDir, 'minions')).sort()).toEqual(['k1', 'k2']);
    expect(readdirSync(join(peer.pkiDir, 'minions_pre'))).toEqual([]);
  }, 60_000);

  it('a session key made here after the one a peer recorded stays, and the peer takes it', async () => {
    const clusterKey = Buffer.alloc(32, 7);
    const secrets = (origin: string) => {
      const cachedir = mkdtempSync(join(tmpdir(), 'tsalt-secretsync-'));
      dirs.push(cachedir);
      mkdirSync(join(cachedir, 'sessions'));
      const sync = new SecretSync({
        cachedir,
        store: store(),
        origin,
        cluster: 'sessions-it',
        key: clusterKey,
        onAesAdopted: () => undefined,
        onRefused: () => undefined,
      });
      const put = (id: string, key: string, atS: number) => {
        const path = join(cachedir, 'sessions', id);
        writeFileSync(path, key);
        utimesSync(path, atS, atS);
      };
      return { sync, put, read: (id: string) => readFileSync(join(cachedir, 'sessions', id), 'utf8') };
    };
    const a = secrets('sa');
    const b = secrets('sb');
    await a.sync.round();
    const now = Math.floor(Date.now() / 1000);
    // the minion signed in on B, then (its request timed out) on A before B's key reached A
    b.put('m1', 'a2V5Yg==', now - 20);
    await b.sync.round();
    a.put('m1', 'a2V5YQ==', now - 10);
    await a.sync.round();
    expect(a.read('m1')).toBe('a2V5YQ==');
    await b.sync.round();
    expect(b.read('m1')).toBe('a2V5YQ==');
    // and an older key of A's, already recorded, is replaced by a newer one from B
    b.put('m1', 'a2V5Yw==', now - 5);
    await b.sync.round();
    await a.sync.round();
    expect(a.read('m1')).toBe('a2V5Yw==');
  }, 60_000);
});
