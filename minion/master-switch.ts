/**
 * The minion's master as the rest of the minion sees it. With one master or `master_type:
 * failover`, one {@link MasterConnection} at a time, replaced when the minion fails over to
 * another master of its list (minion/failover.ts). Every caller (returns, events, the mine,
 * beacons, engines, pillar) goes through it, so after a switch they all reach the new master, and
 * a return under way when the master died is sent again there.
 *
 * A hot multi-master minion (minion/hot-masters.ts) gives it {@link MasterRoutes}: a request that
 * wants one answer goes to the first master that is up (and to the next one when that one gives
 * no answer), and what Salt's multi-master minion sends to every master (events: event.fire_master,
 * beacons, start events; the mine: mine.send, mine.update, mine.delete, mine.flush) goes to every
 * master that is up.
 */
import type { PillarAsk } from '../kernel/loader/define.js';
import type { Credentials } from './auth.js';
import type { MasterConnection, SendOptions } from './master-connection.js';

/** Where a hot multi-master minion's requests go. */
export interface MasterRoutes {
  /** The first master of the list that is up. */
  first(): MasterConnection;
  /** Every master that is up (at least one connection). */
  all(): MasterConnection[];
  /** `conn` gave no answer: it is down until a check finds it up. */
  down(conn: MasterConnection): void;
}

/** The requests Salt's multi-master minion sends to each of its masters (one minion per master). */
const TO_EVERY_MASTER = new Set(['_minion_event', '_mine', '_mine_delete', '_mine_flush']);

/** Whether `err` says the master gave no answer (rather than an answer that is an error). */
export function noAnswer(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'SALT_ERR_BUS_TIMEOUT';
}

export class MasterSwitch {
  #current: MasterConnection;
  #routes: MasterRoutes | undefined;

  constructor(first: MasterConnection) {
    this.#current = first;
  }

  /** Hot multi-master: requests follow `routes` from now on. */
  route(routes: MasterRoutes): void {
    this.#routes = routes;
  }

  get #active(): MasterConnection {
    return this.#routes ? this.#routes.first() : this.#current;
  }

  get masterUri(): string {
    return this.#active.masterUri;
  }

  get creds(): Credentials {
    return this.#current.creds;
  }

  /** Puts `next` (signed in) in place and closes the one it replaces. */
  replace(next: MasterConnection): void {
    const old = this.#current;
    this.#current = next;
    old.close();
  }

  reauth(): Promise<void> {
    return this.#current.reauth();
  }

  /** Sends to the master in use; a send the switch cut short goes again to the new master. */
  async send(load: Record<string, unknown>, opts: SendOptions = {}): Promise<unknown> {
    if (this.#routes && TO_EVERY_MASTER.has(String(load.cmd))) return this.#toEvery(this.#routes, load, opts);
    return this.#once((conn) => conn.send(load, opts));
  }

  /**
   * Runs `ask` on the master in use. Without routes: when a failover replaced the connection
   * meanwhile, again on the new one. With routes: when the master gave no answer, it is marked
   * down and `ask` runs on the next one that is up.
   */
  async #once<T>(ask: (conn: MasterConnection) => Promise<T>): Promise<T> {
    const conn = this.#active;
    try {
      return await ask(conn);
    } catch (err) {
      if (this.#routes) {
        if (!noAnswer(err)) throw err;
        this.#routes.down(conn);
      }
      const next = this.#active;
      if (next === conn) throw err;
      return ask(next);
    }
  }

  /** To every master that is up, at once: the first answer, or the first error when none answered. */
  async #toEvery(routes: MasterRoutes, load: Record<string, unknown>, opts: SendOptions): Promise<unknown> {
    const targets = routes.all();
    const settled = await Promise.allSettled(targets.map((conn) => conn.send(load, opts)));
    settled.forEach((s, i) => {
      if (s.status === 'rejected' && noAnswer(s.reason)) routes.down(targets[i]!);
    });
    const ok = settled.find((s) => s.status === 'fulfilled');
    if (ok) return ok.value;
    throw (settled[0] as PromiseRejectedResult).reason;
  }

  pillar(grains: unknown, ask?: PillarAsk): Promise<unknown> {
    return this.#once((conn) => conn.pillar(grains, ask));
  }

  openPublish(frame: Buffer): Promise<Record<string, unknown> | undefined> {
    return this.#current.openPublish(frame);
  }

  close(): void {
    this.#current.close();
  }
}
