/**
 * The minion's master as the rest of the minion sees it: one {@link MasterConnection} at a time,
 * replaced when the minion fails over to another master of its list (minion/failover.ts). Every
 * caller (returns, events, the mine, beacons, engines, pillar) goes through it, so after a switch
 * they all reach the new master, and a return under way when the master died is sent again there.
 */
import type { PillarAsk } from '../kernel/loader/define.js';
import type { Credentials } from './auth.js';
import type { MasterConnection, SendOptions } from './master-connection.js';

export class MasterSwitch {
  #current: MasterConnection;

  constructor(first: MasterConnection) {
    this.#current = first;
  }

  get masterUri(): string {
    return this.#current.masterUri;
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
    const conn = this.#current;
    try {
      return await conn.send(load, opts);
    } catch (err) {
      if (conn === this.#current) throw err;
      return this.#current.send(load, opts);
    }
  }

  pillar(grains: unknown, ask?: PillarAsk): Promise<unknown> {
    return this.#current.pillar(grains, ask);
  }

  openPublish(frame: Buffer): Promise<Record<string, unknown> | undefined> {
    return this.#current.openPublish(frame);
  }

  close(): void {
    this.#current.close();
  }
}
