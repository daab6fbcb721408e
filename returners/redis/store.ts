/**
 * One connection to one Redis server in Salt's `redis_return` key layout, with a bounded
 * buffer for writes made while the server is unreachable.
 *
 * Keys (Salt's): `ret:<jid>` hash minion -> return JSON, `load:<jid>` load JSON,
 * `<minion>:<fun>` last jid, `minions` set. tsalt's own: `minions:<jid>` targeted minions,
 * `end:<jid>` end states, `tsalt:jid:<jid>` jid reservations, `tsalt:jobs` sorted set of jids
 * by age (for listing and cleaning without KEYS), `salt:events` stream (event_return).
 */
import { createClient, ErrorReply } from 'redis';
import {
  SALT_ERR_JOB_DUPLICATE_RETURN,
  SALT_ERR_RETURNER_FAILED,
  SaltError,
  type UnitLogger,
} from '../../kernel/index.js';
import { reasonOf, WriteBuffer } from '../_write-buffer.js';
import { encodeJson } from '../postgres/json-value.js';
import type { PendingWrite } from '../postgres/queries.js';
import type { RedisOptions } from './options.js';

export const STORE = 'redis';
export type RedisClient = ReturnType<typeof createClient>;

/** Whether an error means "cannot reach the server" rather than "the server refused the command". */
export function isDown(err: unknown): boolean {
  return !(err instanceof SaltError) && !(err instanceof ErrorReply);
}

function funText(fun: unknown): string {
  return Array.isArray(fun) ? fun.join(',') : String(fun ?? '');
}

/** A job's age score: its jid's time (ms), or now when the jid is not a time or is in the future. */
export function jobScore(jid: string): number {
  const now = Date.now();
  if (!/^\d{20}/.test(jid)) return now;
  const t = Date.UTC(
    Number(jid.slice(0, 4)),
    Number(jid.slice(4, 6)) - 1,
    Number(jid.slice(6, 8)),
    Number(jid.slice(8, 10)),
    Number(jid.slice(10, 12)),
    Number(jid.slice(12, 14)),
    Number(jid.slice(14, 17)),
  );
  return Number.isFinite(t) ? Math.min(t, now) : now;
}

export class RedisStore {
  readonly client: RedisClient;
  readonly buffer: WriteBuffer<PendingWrite>;
  private everReady = false;
  private readonly firstReady: Promise<void>;
  private wasDown = false;

  constructor(
    readonly options: RedisOptions,
    private readonly log: UnitLogger,
    /** Seconds a job's keys live (Salt: keep_jobs_seconds). */
    readonly ttl: number,
  ) {
    const reconnectStrategy = (retries: number) => Math.min(100 * 2 ** retries, 2000);
    const connectTimeout = Math.round(options.connect_timeout * 1000);
    this.client = createClient({
      socket: options.unix_socket_path
        ? { path: options.unix_socket_path, connectTimeout, reconnectStrategy }
        : { host: options.host, port: options.port, connectTimeout, reconnectStrategy },
      password: options.password || undefined,
      database: options.db,
      // A command while disconnected fails at once instead of waiting in a queue.
      disableOfflineQueue: true,
    });
    this.client.on('error', (err: Error) => {
      if (!this.wasDown)
        log.warn({ err: err.message }, `${STORE}: connection to ${this.where} failed, retrying`);
      this.wasDown = true;
    });
    this.firstReady = new Promise((resolve) => this.client.once('ready', () => resolve()));
    this.client.on('ready', () => {
      this.everReady = true;
      this.wasDown = false;
      void this.buffer.flush();
    });
    this.client.connect().catch(() => undefined);
    this.buffer = new WriteBuffer<PendingWrite>({
      store: STORE,
      max: options.buffer_size,
      retryMs: options.retry_interval * 1000,
      log,
      isDown,
      write: async (item) => this.apply(await this.conn(), item),
    });
  }

  get where(): string {
    return this.options.unix_socket_path ?? `${this.options.host}:${this.options.port}/${this.options.db}`;
  }

  /** The client once connected; the first call waits up to connect_timeout, later ones not at all. */
  async conn(): Promise<RedisClient> {
    if (this.client.isReady) return this.client;
    if (!this.everReady) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.firstReady,
        new Promise((resolve) => {
          timer = setTimeout(resolve, this.options.connect_timeout * 1000);
        }),
      ]);
      clearTimeout(timer);
    }
    if (!this.client.isReady) throw new Error('not connected');
    return this.client;
  }

  private failure(method: string, err: unknown, buffered: boolean): SaltError {
    const reason = reasonOf(err);
    const tail = buffered ? `; ${this.buffer.size} write(s) buffered in memory until it is back` : '';
    return new SALT_ERR_RETURNER_FAILED(
      STORE,
      method,
      `Redis at ${this.where} is unreachable (${reason})${tail}`,
      {
        cause: err,
      },
    );
  }

  async read<T>(method: string, run: (client: RedisClient) => Promise<T>): Promise<T> {
    try {
      const client = await this.conn();
      await this.buffer.flush();
      return await run(client);
    } catch (err) {
      if (err instanceof SaltError) throw err;
      if (isDown(err)) throw this.failure(method, err, false);
      throw new SALT_ERR_RETURNER_FAILED(STORE, method, reasonOf(err), { cause: err });
    }
  }

  /** Runs a write; while the server is unreachable it is buffered and SALT_ERR_RETURNER_FAILED is thrown. */
  async write(method: string, item: PendingWrite): Promise<void> {
    try {
      const client = await this.conn();
      if (!(await this.buffer.flush())) throw new Error('buffered writes could not be written');
      await this.apply(client, item);
    } catch (err) {
      if (err instanceof SaltError) throw err;
      if (isDown(err)) {
        this.buffer.push(item);
        throw this.failure(method, err, true);
      }
      throw new SALT_ERR_RETURNER_FAILED(STORE, method, reasonOf(err), { cause: err });
    }
  }

  /** Writes one pending write. @throws SALT_ERR_JOB_DUPLICATE_RETURN for a second return */
  async apply(c: RedisClient, w: PendingWrite): Promise<void> {
    const ttl = this.ttl;
    const job = (jid: string) => ({ score: jobScore(jid), value: jid });
    switch (w.kind) {
      case 'jid':
        await c.set(`tsalt:jid:${w.jid}`, w.nocache ? 'nocache' : '1', {
          condition: 'NX',
          expiration: { type: 'EX', value: ttl },
        });
        return;
      case 'load': {
        const m = c
          .multi()
          .set(`load:${w.jid}`, encodeJson(w.load), { expiration: { type: 'EX', value: ttl } })
          .del(`minions:${w.jid}`)
          .zAdd('tsalt:jobs', job(w.jid), { condition: 'NX' });
        if (w.minions.length > 0) m.sAdd(`minions:${w.jid}`, w.minions).expire(`minions:${w.jid}`, ttl);
        await m.exec();
        return;
      }
      case 'minions':
        if (w.minions.length === 0) return;
        await c.multi().sAdd(`minions:${w.jid}`, w.minions).expire(`minions:${w.jid}`, ttl).exec();
        return;
      case 'return': {
        const { ret } = w;
        const added = await c.hSetNX(`ret:${ret.jid}`, ret.id, encodeJson(ret));
        if (!added) throw new SALT_ERR_JOB_DUPLICATE_RETURN(ret.id, ret.jid);
        await c
          .multi()
          .expire(`ret:${ret.jid}`, ttl)
          .set(`${ret.id}:${funText(ret.fun)}`, ret.jid)
          .sAdd('minions', ret.id)
          .zAdd('tsalt:jobs', job(ret.jid), { condition: 'NX' })
          .exec();
        return;
      }
      case 'end':
        if (await c.hExists(`ret:${w.jid}`, w.id)) return;
        await c.multi().hSetNX(`end:${w.jid}`, w.id, w.state).expire(`end:${w.jid}`, ttl).exec();
        return;
      case 'events':
        for (const event of w.events) {
          await c.xAdd(
            'salt:events',
            '*',
            { tag: event.tag, data: encodeJson(event.data ?? {}), master_id: w.masterId },
            { TRIM: { strategy: 'MAXLEN', strategyModifier: '~', threshold: this.options.events_max } },
          );
        }
        return;
    }
  }

  /** Writes what is buffered (one try), then closes the connection. */
  async close(): Promise<void> {
    if (this.buffer.size > 0 && this.client.isReady) await this.buffer.flush().catch(() => false);
    const lost = this.buffer.stop();
    if (lost > 0) this.log.error({ lost }, `${STORE}: closing with ${lost} buffered write(s) not stored`);
    if (this.client.isReady) await this.client.close().catch(() => this.client.destroy());
    else if (this.client.isOpen) this.client.destroy();
  }
}
