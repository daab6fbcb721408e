/**
 * The cluster's shared state in PostgreSQL (`cluster_backend: postgres`): every minion key and
 * its state (`tsalt_cluster_keys`, each change numbered from one sequence so a master reads only
 * what is new, and announced with NOTIFY), the minion data cache (`tsalt_cluster_minion_data`,
 * numbered and announced alike), the secrets the masters share sealed under the cluster key
 * (`tsalt_cluster_secrets`: the AES key, the minions' session keys), and the masters of the cluster with their last sign of
 * life (`tsalt_cluster_masters`: two live masters with one id are refused). Tables are made on
 * first use under an advisory lock, as the `postgres` returner makes its own.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { PostgresOptions } from '../../returners/postgres/options.js';

/** Any number, the same for every master of the database (the returner's is 0x7a5a17). */
const SCHEMA_LOCK = 0x7a5a18;
export const KEYS_CHANNEL = 'tsalt_cluster_keys';
/**
 * Every write that numbers a change takes this transaction lock before `nextval`, and holds it
 * until it commits, so changes become visible in the order of their numbers. Without it a writer
 * could take 100, another 101 and commit first, and a master reading `version > 99` in between
 * moved on to 101 and never saw 100 (a session key lost: the minion signs in again when it
 * reaches that master; seen at 10,000 minions behind HAProxy).
 */
export const WRITE_LOCK = 0x7a5a19;
/** Changes recorded per statement (putKeys, putSecrets). */
export const PUT_BATCH = 500;

const DDL = [
  'CREATE SEQUENCE IF NOT EXISTS tsalt_cluster_key_version',
  `CREATE TABLE IF NOT EXISTS tsalt_cluster_keys (
     cluster text NOT NULL,
     id text NOT NULL,
     state text NOT NULL,
     pub text NOT NULL,
     version bigint NOT NULL,
     origin text NOT NULL,
     changed timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (cluster, id))`,
  'CREATE INDEX IF NOT EXISTS idx_tsalt_cluster_keys_version ON tsalt_cluster_keys (cluster, version)',
  `CREATE TABLE IF NOT EXISTS tsalt_cluster_minion_data (
     cluster text NOT NULL,
     id text NOT NULL,
     name text NOT NULL,
     data bytea NOT NULL,
     version bigint NOT NULL,
     origin text NOT NULL,
     PRIMARY KEY (cluster, id, name))`,
  'CREATE INDEX IF NOT EXISTS idx_tsalt_cluster_minion_data_version ON tsalt_cluster_minion_data (cluster, version)',
  `CREATE TABLE IF NOT EXISTS tsalt_cluster_secrets (
     cluster text NOT NULL,
     name text NOT NULL,
     data bytea NOT NULL,
     version bigint NOT NULL,
     origin text NOT NULL,
     PRIMARY KEY (cluster, name))`,
  'CREATE INDEX IF NOT EXISTS idx_tsalt_cluster_secrets_version ON tsalt_cluster_secrets (cluster, version)',
  `CREATE TABLE IF NOT EXISTS tsalt_cluster_masters (
     cluster text NOT NULL,
     id text NOT NULL,
     address text NOT NULL,
     instance text NOT NULL,
     seen timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (cluster, id))`,
];

/** A key's shared state: `accepted`, `pending`, `rejected`, or `deleted` (a tombstone). */
export type SharedKeyState = 'accepted' | 'pending' | 'rejected' | 'deleted';

export interface SharedKey {
  id: string;
  state: SharedKeyState;
  pub: string;
  version: number;
  origin: string;
}

/** A shared secret as the store holds it: sealed (secret-box.ts). */
export interface SealedSecret {
  name: string;
  data: Buffer;
  version: number;
  origin: string;
}

/** One file of a minion's data cache as the store holds it. */
export interface MinionFile {
  id: string;
  name: string;
  data: Buffer;
  version: number;
  origin: string;
}

export function poolConfig(o: PostgresOptions): pg.PoolConfig {
  return {
    host: o.host,
    port: o.port,
    user: o.user,
    password: o.password,
    database: o.db,
    max: 2,
    connectionTimeoutMillis: Math.round(o.connect_timeout * 1000),
    idleTimeoutMillis: 30_000,
    query_timeout: 30_000,
    application_name: 'tsalt-cluster',
  };
}

export class ClusterStore {
  readonly pool: pg.Pool;
  /** This master process's registration (a restarted master is a new instance). */
  readonly instance = randomUUID();
  #schema: Promise<void> | undefined;
  #listener: pg.Client | undefined;

  constructor(
    readonly options: PostgresOptions,
    readonly cluster: string,
    onIdleError: (err: Error) => void,
  ) {
    this.pool = new pg.Pool(poolConfig(options));
    this.pool.on('error', onIdleError);
  }

  get where(): string {
    return `postgres ${this.options.user}@${this.options.host}:${this.options.port}/${this.options.db}`;
  }

  ready(): Promise<void> {
    this.#schema ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        await client.query('SELECT pg_advisory_xact_lock($1)', [SCHEMA_LOCK]);
        for (const sql of DDL) await client.query(sql);
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    })().catch((err: unknown) => {
      this.#schema = undefined;
      throw err;
    });
    return this.#schema;
  }

  /** Key changes numbered after `version`, oldest first. */
  async changesSince(version: number, limit = 5000): Promise<SharedKey[]> {
    await this.ready();
    const r = await this.pool.query<{
      id: string;
      state: SharedKeyState;
      pub: string;
      version: string;
      origin: string;
    }>(
      `SELECT id, state, pub, version, origin FROM tsalt_cluster_keys
        WHERE cluster = $1 AND version > $2 ORDER BY version LIMIT $3`,
      [this.cluster, version, limit],
    );
    return r.rows.map((row) => ({ ...row, version: Number(row.version) }));
  }

  /** Minion data cache files recorded after `version`, oldest first. */
  async dataSince(version: number, limit = 1000): Promise<MinionFile[]> {
    await this.ready();
    const r = await this.pool.query<Omit<MinionFile, 'version'> & { version: string }>(
      `SELECT id, name, data, version, origin FROM tsalt_cluster_minion_data
        WHERE cluster = $1 AND version > $2 ORDER BY version LIMIT $3`,
      [this.cluster, version, limit],
    );
    return r.rows.map((row) => ({ ...row, version: Number(row.version) }));
  }

  /** Secrets recorded after `version`, oldest first. */
  async secretsSince(version: number, limit = 1000): Promise<SealedSecret[]> {
    await this.ready();
    const r = await this.pool.query<Omit<SealedSecret, 'version'> & { version: string }>(
      `SELECT name, data, version, origin FROM tsalt_cluster_secrets
        WHERE cluster = $1 AND version > $2 ORDER BY version LIMIT $3`,
      [this.cluster, version, limit],
    );
    return r.rows.map((row) => ({ ...row, version: Number(row.version) }));
  }

  /** Records a sealed secret (the latest writer wins) and tells the other masters. */
  putSecret(name: string, data: Buffer, origin: string): Promise<void> {
    return this.putSecrets([{ name, data }], origin);
  }

  /**
   * Records sealed secrets in one statement (distinct names; the latest writer wins) and tells the
   * other masters: a sign-in storm's thousands of new session keys are a few writes, not one each.
   */
  async putSecrets(secrets: readonly { name: string; data: Buffer }[], origin: string): Promise<void> {
    if (secrets.length === 0) return;
    await this.ready();
    await this.pool.query(
      `WITH lock AS (SELECT pg_advisory_xact_lock(${WRITE_LOCK})),
       up AS (
         INSERT INTO tsalt_cluster_secrets (cluster, name, data, version, origin)
         SELECT $1::text, u.name, u.data, nextval('tsalt_cluster_key_version'), $4::text
           FROM lock, unnest($2::text[], $3::bytea[]) AS u(name, data)
         ON CONFLICT (cluster, name) DO UPDATE SET data = EXCLUDED.data, version = EXCLUDED.version,
           origin = EXCLUDED.origin
         RETURNING 1)
       SELECT pg_notify($5, $1) FROM (SELECT 1 FROM up LIMIT 1) AS one`,
      [this.cluster, secrets.map((x) => x.name), secrets.map((x) => x.data), origin, KEYS_CHANNEL],
    );
  }

  /** Records one file of a minion's data cache (`data.p`, `mine.p`) and tells the other masters. */
  async putData(id: string, name: string, data: Buffer, origin: string): Promise<void> {
    await this.ready();
    await this.pool.query(
      `WITH lock AS (SELECT pg_advisory_xact_lock(${WRITE_LOCK})),
       up AS (
         INSERT INTO tsalt_cluster_minion_data (cluster, id, name, data, version, origin)
         SELECT $1::text, $2::text, $3::text, $4::bytea, nextval('tsalt_cluster_key_version'), $5::text FROM lock
         ON CONFLICT (cluster, id, name) DO UPDATE SET data = EXCLUDED.data, version = EXCLUDED.version,
           origin = EXCLUDED.origin
         RETURNING 1)
       SELECT pg_notify($6, $1) FROM up`,
      [this.cluster, id, name, data, origin, KEYS_CHANNEL],
    );
  }

  /** Records a key's new state (the latest writer wins) and tells the other masters. */
  putKey(id: string, state: SharedKeyState, pub: string, origin: string): Promise<void> {
    return this.putKeys([{ id, state, pub }], origin);
  }

  /** Records keys' new states in one statement (distinct ids), as {@link putSecrets}. */
  async putKeys(
    keys: readonly { id: string; state: SharedKeyState; pub: string }[],
    origin: string,
  ): Promise<void> {
    if (keys.length === 0) return;
    await this.ready();
    await this.pool.query(
      `WITH lock AS (SELECT pg_advisory_xact_lock(${WRITE_LOCK})),
       up AS (
         INSERT INTO tsalt_cluster_keys (cluster, id, state, pub, version, origin)
         SELECT $1::text, u.id, u.state, u.pub, nextval('tsalt_cluster_key_version'), $5::text
           FROM lock, unnest($2::text[], $3::text[], $4::text[]) AS u(id, state, pub)
         ON CONFLICT (cluster, id) DO UPDATE SET state = EXCLUDED.state, pub = EXCLUDED.pub,
           version = EXCLUDED.version, origin = EXCLUDED.origin, changed = now()
         RETURNING 1)
       SELECT pg_notify($6, $1) FROM (SELECT 1 FROM up LIMIT 1) AS one`,
      [
        this.cluster,
        keys.map((k) => k.id),
        keys.map((k) => k.state),
        keys.map((k) => k.pub),
        origin,
        KEYS_CHANNEL,
      ],
    );
  }

  /**
   * Registers this master under `id` and refreshes its sign of life. Another live master (seen
   * within `staleSeconds`) at another address holding the id wins: its address is returned.
   */
  async register(id: string, address: string, staleSeconds: number): Promise<string | undefined> {
    await this.ready();
    const r = await this.pool.query(
      `INSERT INTO tsalt_cluster_masters AS m (cluster, id, address, instance)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (cluster, id) DO UPDATE SET address = EXCLUDED.address, instance = EXCLUDED.instance, seen = now()
         WHERE m.instance = EXCLUDED.instance OR m.address = EXCLUDED.address
            OR m.seen < now() - make_interval(secs => $5)
       RETURNING id`,
      [this.cluster, id, address, this.instance, staleSeconds],
    );
    if (r.rowCount) return undefined;
    const other = await this.pool.query<{ address: string }>(
      'SELECT address FROM tsalt_cluster_masters WHERE cluster = $1 AND id = $2',
      [this.cluster, id],
    );
    return other.rows[0]?.address ?? 'unknown';
  }

  /** Calls `onChange` when another master announces a key change; the connection is made again when lost. */
  async listen(onChange: () => void, onError: (err: Error) => void): Promise<void> {
    if (this.#listener) return;
    const client = new pg.Client(poolConfig(this.options));
    this.#listener = client;
    client.on('notification', () => onChange());
    client.on('error', (err) => {
      onError(err);
      if (this.#listener === client) this.#listener = undefined;
      void client.end().catch(() => undefined);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEYS_CHANNEL}`);
    } catch (err) {
      if (this.#listener === client) this.#listener = undefined;
      await client.end().catch(() => undefined);
      throw err;
    }
  }

  get listening(): boolean {
    return this.#listener !== undefined;
  }

  async close(): Promise<void> {
    await this.#listener?.end().catch(() => undefined);
    this.#listener = undefined;
    await this.pool.end().catch(() => undefined);
  }
}
