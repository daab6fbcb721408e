/**
 * The cluster process's part for `cluster_backend: postgres`: registers this master (refusing a
 * second live master with its id), then syncs the minion keys, the minion data cache and the
 * AES and session keys (key-sync.ts, data-sync.ts, secret-sync.ts) every `cluster_sync_interval`,
 * at once when another master announces a change (LISTEN), and when a session or AES key file
 * changes here. A round stats only the session and minion data files a watch saw change
 * (folder-changes.ts), with a full scan every minute as a safety net. The database going away stops
 * nothing: the failure is logged once with CLUSTER_ERR_BACKEND, rounds go on failing quietly,
 * and the first round that succeeds again catches up with every change made meanwhile.
 */
import { type FSWatcher, watch } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { KeyManager } from '../../kernel/services.js';
import { gatherReturnerOptions } from '../../kernel/util.js';
import { postgresOptions } from '../../returners/postgres/options.js';
import { ClusterStore } from './cluster-store.js';
import { DataSync } from './data-sync.js';
import { CLUSTER_ERR_BACKEND, CLUSTER_ERR_DUPLICATE_ID } from './errors.js';
import { FolderChanges } from './folder-changes.js';
import { KeySync } from './key-sync.js';
import { SecretSync } from './secret-sync.js';

/** Seconds between two registrations; a master silent for three of them no longer holds its id. */
const REGISTER_EVERY_S = 5;

export interface SharedStateOptions {
  config: Readonly<Record<string, unknown>>;
  /** `cluster_postgres`, or null for the returner's `postgres` block. */
  connection: Record<string, unknown> | null;
  cluster: string;
  masterId: string;
  /** How peers reach this master, recorded with its id. */
  address: string;
  pkiDir: string;
  cachedir: string;
  keys: KeyManager;
  intervalMs: number;
  log: Logger;
  /** The cluster key, under which the shared AES and session keys are sealed (secret-sync.ts). */
  clusterKey: Buffer;
  /** This master's `.aes` now holds the cluster's key: its publisher and request server read it again. */
  onAesAdopted(): void;
}

/** A change under the watched folders runs a round this soon (changes in a burst share it). */
const WATCH_DELAY_MS = 50;
/** The watched folders are scanned in full at least this often (a watch can miss events). */
const FULL_SCAN_EVERY_MS = 60_000;

export class SharedState {
  readonly store: ClusterStore;
  readonly #sync: KeySync;
  readonly #data: DataSync;
  readonly #secrets: SecretSync;
  readonly #watchers: FSWatcher[] = [];
  readonly #folders: FolderChanges[];
  #soon: NodeJS.Timeout | undefined;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #down = false;
  #registered = 0;
  #stopped = false;

  constructor(private readonly o: SharedStateOptions) {
    const raw = o.connection ?? gatherReturnerOptions('postgres', o.config);
    this.store = new ClusterStore(postgresOptions.parse(raw), o.cluster, (err) =>
      o.log.debug({ err: err.message }, 'cluster: an idle database connection failed'),
    );
    this.#sync = new KeySync({ pkiDir: o.pkiDir, store: this.store, keys: o.keys, origin: o.masterId });
    // a new session key goes out at once (behind a load balancer the minion's next request may
    // reach another master); a minion's data at the next round
    const sessions = new FolderChanges(join(o.cachedir, 'sessions'), {
      depth: 1,
      fullEveryMs: FULL_SCAN_EVERY_MS,
      onChange: () => this.#soonRound(),
    });
    const minions = new FolderChanges(join(o.cachedir, 'minions'), {
      depth: 2,
      fullEveryMs: FULL_SCAN_EVERY_MS,
    });
    this.#folders = [sessions, minions];
    this.#data = new DataSync(o.cachedir, this.store, o.masterId, minions);
    this.#secrets = new SecretSync({
      cachedir: o.cachedir,
      store: this.store,
      origin: o.masterId,
      cluster: o.cluster,
      key: o.clusterKey,
      onAesAdopted: () => {
        o.log.info('cluster: took the AES key of the cluster');
        o.onAesAdopted();
      },
      onRefused: (name) =>
        o.log.warn({ name }, 'cluster: a shared secret does not open under this cluster key; ignored'),
      sessionChanges: sessions,
    });
  }

  /** The first registration and round; throws CLUSTER_ERR_DUPLICATE_ID, never for a database that is down. */
  async start(): Promise<void> {
    await this.#register(true);
    await this.#round();
    this.#timer = setInterval(() => void this.trigger(), this.o.intervalMs);
    // a rotated AES key goes out at once, not at the next round (the sessions' watch: above)
    try {
      const w = watch(this.o.cachedir, (_event, name) => {
        if (name === '.aes') this.#soonRound();
      });
      w.on('error', () => w.close());
      this.#watchers.push(w);
    } catch {
      // no watch here: the rounds still find the change
    }
  }

  #soonRound(): void {
    this.#soon ??= setTimeout(() => {
      this.#soon = undefined;
      void this.trigger();
    }, WATCH_DELAY_MS);
  }

  async #register(atStart: boolean): Promise<void> {
    if (Date.now() - this.#registered < REGISTER_EVERY_S * 1000) return;
    let other: string | undefined;
    try {
      other = await this.store.register(this.o.masterId, this.o.address, REGISTER_EVERY_S * 3);
    } catch (err) {
      if (atStart) this.#failed(err);
      else throw err;
      return;
    }
    if (other !== undefined) {
      const err = new CLUSTER_ERR_DUPLICATE_ID(this.o.masterId, other);
      if (atStart) throw err;
      this.o.log.error({ code: err.code }, err.message);
      this.#registered = Date.now();
      return;
    }
    this.#registered = Date.now();
  }

  #failed(err: unknown): void {
    if (this.#down) return;
    this.#down = true;
    const e = new CLUSTER_ERR_BACKEND(this.store.where, (err as Error).message);
    this.o.log.warn({ code: e.code }, `${e.message}; minion key changes wait until it is back`);
  }

  async #round(): Promise<void> {
    try {
      await this.#register(false);
      if (!this.store.listening)
        await this.store.listen(
          () => void this.trigger(),
          (err) => this.o.log.debug({ err: err.message }, 'cluster: the LISTEN connection failed'),
        );
      // the session keys first: behind a balancer a minion's next request may reach another
      // master at once, and a round of 5,000 new keys or data files takes seconds
      const secrets = await this.#secrets.round();
      if (secrets.applied || secrets.recorded)
        this.o.log.debug(secrets, 'cluster: AES and session keys synced');
      const { applied, recorded } = await this.#sync.round();
      if (applied || recorded) this.o.log.info({ applied, recorded }, 'cluster: minion keys synced');
      const data = await this.#data.round();
      if (data.applied || data.recorded) this.o.log.debug(data, 'cluster: minion data cache synced');
      if (this.#down) this.o.log.info(`cluster: ${this.store.where} is back`);
      this.#down = false;
    } catch (err) {
      this.#failed(err);
    }
  }

  /** Runs a round now, or right after the one under way. */
  trigger(): Promise<void> {
    if (this.#stopped) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#round();
      } while (this.#again && !this.#stopped);
    })().finally(() => {
      this.#running = undefined;
    });
    return this.#running;
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#timer);
    clearTimeout(this.#soon);
    for (const w of this.#watchers.splice(0)) w.close();
    for (const f of this.#folders) f.close();
    await this.#running;
    await this.store.close();
  }
}
