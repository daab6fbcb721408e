/**
 * Salt's hot multi-master: with `master: [a, b, ...]` and `master_type` left at `str`, the minion
 * signs in to every master of the list and takes the publishes of each; a job's return goes back
 * to the master whose publish brought it (a jid that comes from two masters, as in a cluster, runs
 * once, for the first). The minion's other requests (pillar, mine, events, beacons) go to its
 * first master, the one it signed in to at its start (minion/master-switch.ts). This file holds
 * the other masters: each is signed in to in the background, retried until it accepts the key, so
 * a master that is down or has not accepted the key yet holds up neither the start nor the others.
 */
import type { Logger } from 'pino';
import type { MasterConnection } from './master-connection.js';

/** What a publish needs of the master it came from: to open it, and to take its return. */
export interface PublishSource {
  openPublish(frame: Buffer): Promise<Record<string, unknown> | undefined>;
  send: MasterConnection['send'];
}

export interface HotMastersOptions {
  /** The minion's master list, host names or addresses. */
  masters: readonly string[];
  /** The index of the master the minion signed in to first (its primary). */
  primary: number;
  /** A connection to master `index`, not signed in yet. */
  connect(index: number): MasterConnection;
  /** Subscribes to the publisher of `host` (at `publishPort`, which the sign-in told). */
  subscribe(host: string, publishPort: number, source: PublishSource): { close(): void };
  log: Logger;
}

export class HotMasters {
  readonly #conns: MasterConnection[] = [];
  readonly #subs: { close(): void }[] = [];
  #stopped = false;

  constructor(private readonly o: HotMastersOptions) {}

  /** Signs in to every master but the primary, in the background. */
  start(): void {
    this.o.masters.forEach((host, i) => {
      if (i !== this.o.primary) void this.#join(host, i);
    });
  }

  async #join(host: string, index: number): Promise<void> {
    const conn = this.o.connect(index);
    this.#conns.push(conn);
    try {
      // retries until the master answers and accepts the key (MasterConnection's sign-in loop)
      await conn.signIn();
    } catch (err) {
      if (!this.#stopped)
        this.o.log.error({ master: host, err: (err as Error).message }, 'hot master: no sign-in');
      return;
    }
    if (this.#stopped) return;
    this.#subs.push(this.o.subscribe(host, conn.creds.publishPort, conn));
    this.o.log.info({ master: host }, `hot master: connected to ${host} too`);
  }

  close(): void {
    this.#stopped = true;
    for (const s of this.#subs.splice(0)) s.close();
    for (const c of this.#conns.splice(0)) c.close();
  }
}
