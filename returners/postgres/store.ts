/**
 * One connection pool to one PostgreSQL database, with the schema made on first use and a
 * bounded buffer for writes made while the server is unreachable.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { SALT_ERR_RETURNER_FAILED, SaltError, type UnitLogger } from '../../kernel/index.js';
import { reasonOf, WriteBuffer } from '../_write-buffer.js';
import type { PostgresOptions } from './options.js';
import { applyWrite, type PendingWrite } from './queries.js';
import { ensureSchema } from './schema.js';

export const STORE = 'postgres';

/** After a failed connection, calls fail fast (and buffer) for this long instead of each waiting. */
const FAIL_FAST_MS = 1000;

function sslConfig(o: PostgresOptions): pg.PoolConfig['ssl'] {
  if (!o.sslmode || o.sslmode === 'disable' || o.sslmode === 'allow' || o.sslmode === 'prefer') return false;
  const read = (path: string | null | undefined) => (path ? readFileSync(path, 'utf8') : undefined);
  const verify = o.sslmode === 'verify-ca' || o.sslmode === 'verify-full';
  return {
    rejectUnauthorized: verify,
    ca: read(o.sslrootcert),
    cert: read(o.sslcert),
    key: read(o.sslkey),
    crl: read(o.sslcrl),
    ...(o.sslmode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}),
  };
}

/** Whether an error means "cannot reach the server" rather than "the server refused this statement". */
export function isDown(err: unknown): boolean {
  if (err instanceof SaltError) return false;
  if (err instanceof pg.DatabaseError) return /^(08|53|57P)/.test(err.code ?? '');
  return true;
}

export class PgStore {
  readonly pool: pg.Pool;
  readonly buffer: WriteBuffer<PendingWrite>;
  private schema: Promise<void> | undefined;
  private downUntil = 0;

  constructor(
    readonly options: PostgresOptions,
    private readonly log: UnitLogger,
  ) {
    this.pool = new pg.Pool({
      host: options.host,
      port: options.port,
      user: options.user,
      password: options.password,
      database: options.db,
      ssl: sslConfig(options),
      max: options.pool_size,
      connectionTimeoutMillis: Math.round(options.connect_timeout * 1000),
      idleTimeoutMillis: 30_000,
      query_timeout: 120_000,
      application_name: 'tsalt',
    });
    // A pooled connection the server drops (restart, shutdown) must not take the master down.
    this.pool.on('error', (err) => log.warn({ err: err.message }, `${STORE}: an idle connection failed`));
    this.buffer = new WriteBuffer<PendingWrite>({
      store: STORE,
      max: options.buffer_size,
      retryMs: options.retry_interval * 1000,
      log,
      isDown,
      write: async (item) => {
        await this.ready();
        await applyWrite(this.pool, item);
      },
    });
  }

  /** Where the store is, for error messages. */
  get where(): string {
    return `${this.options.user}@${this.options.host}:${this.options.port}/${this.options.db}`;
  }

  /** The schema, made once per pool (again after a failure). */
  ready(): Promise<void> {
    this.schema ??= (async () => {
      const client = await this.pool.connect();
      try {
        await ensureSchema(client);
        client.release();
      } catch (err) {
        client.release(err instanceof Error ? err : true);
        throw err;
      }
    })().catch((err: unknown) => {
      this.schema = undefined;
      throw err;
    });
    return this.schema;
  }

  private downError(method: string, err: unknown): SaltError {
    const reason = reasonOf(err);
    return new SALT_ERR_RETURNER_FAILED(
      STORE,
      method,
      `PostgreSQL at ${this.where} is unreachable (${reason}); ${this.buffer.size} write(s) buffered in memory until it is back`,
      { cause: err },
    );
  }

  /** Runs a read (pending writes first, so it sees them). */
  async read<T>(method: string, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
    if (Date.now() < this.downUntil)
      throw new SALT_ERR_RETURNER_FAILED(
        STORE,
        method,
        `PostgreSQL at ${this.where} was unreachable a moment ago`,
        {
          cause: new Error('fail fast'),
        },
      );
    try {
      await this.ready();
      await this.buffer.flush();
      return await run(this.pool);
    } catch (err) {
      if (err instanceof SaltError) throw err;
      if (isDown(err)) {
        this.downUntil = Date.now() + FAIL_FAST_MS;
        throw new SALT_ERR_RETURNER_FAILED(
          STORE,
          method,
          `PostgreSQL at ${this.where} is unreachable (${reasonOf(err)})`,
          { cause: err },
        );
      }
      throw new SALT_ERR_RETURNER_FAILED(STORE, method, reasonOf(err), { cause: err });
    }
  }

  /**
   * Runs a write; while the server is unreachable the write is buffered and a
   * SALT_ERR_RETURNER_FAILED naming the store is thrown.
   */
  async write(method: string, item: PendingWrite): Promise<void> {
    if (Date.now() < this.downUntil) {
      this.buffer.push(item);
      throw this.downError(method, new Error('server was unreachable a moment ago'));
    }
    try {
      await this.ready();
      if (!(await this.buffer.flush())) {
        this.downUntil = Date.now() + FAIL_FAST_MS;
        this.buffer.push(item);
        throw this.downError(method, new Error('buffered writes could not be written'));
      }
      await applyWrite(this.pool, item);
    } catch (err) {
      if (err instanceof SaltError) throw err;
      if (isDown(err)) {
        this.downUntil = Date.now() + FAIL_FAST_MS;
        this.buffer.push(item);
        throw this.downError(method, err);
      }
      throw new SALT_ERR_RETURNER_FAILED(STORE, method, reasonOf(err), { cause: err });
    }
  }

  /** Writes what is buffered (one try), then closes the pool. */
  async close(): Promise<void> {
    if (this.buffer.size > 0 && Date.now() >= this.downUntil) await this.buffer.flush().catch(() => false);
    const lost = this.buffer.stop();
    if (lost > 0) this.log.error({ lost }, `${STORE}: closing with ${lost} buffered write(s) not stored`);
    await this.pool.end();
  }
}
