/**
 * Minion keys shared through the cluster store: each round reads the changes other masters made
 * since the last one and applies them to this master's `pki_dir` (through the key manager, so a
 * rejection or deletion also drops the minion's session and cache as `salt-key` would), then
 * compares the key folders with what it last knew and records what changed here (a sign-in's new
 * pending key, a `salt-key` run) in the store. The store is the truth at the start: a key deleted
 * on the cluster while this master was down is deleted here when it comes back.
 *
 * Synced: accepted, pending and rejected. `minions_denied` stays local (it holds a second key
 * of an id whose first is accepted, a fact about one master's sign-ins).
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { deleteKey, KEY_STATES, type KeyManager, listKeys, readKey, sameKey } from '../../kernel/services.js';
import { isValidMinionId } from '../../kernel/util.js';
import { type ClusterStore, PUT_BATCH, type SharedKey, type SharedKeyState } from './cluster-store.js';

type LocalState = Exclude<SharedKeyState, 'deleted'>;

const LOCAL_STATES: readonly LocalState[] = ['accepted', 'rejected', 'pending'];
const DIR_OF: Record<LocalState, 'minions' | 'minions_pre' | 'minions_rejected'> = {
  accepted: 'minions',
  pending: 'minions_pre',
  rejected: 'minions_rejected',
};

export interface KeySyncOptions {
  pkiDir: string;
  store: ClusterStore;
  keys: KeyManager;
  /** This master's id, recorded as the origin of its changes. */
  origin: string;
}

export interface RoundResult {
  /** Changes of other masters applied here. */
  applied: number;
  /** Changes made here, recorded in the store. */
  recorded: number;
}

export class KeySync {
  #version = 0;
  /** After the first round this master's own rows are not applied again (the store is the truth only at start). */
  #started = false;
  readonly #known = new Map<string, { state: LocalState; pub: string }>();

  constructor(private readonly o: KeySyncOptions) {}

  /**
   * The ids in each synced state here, one state per id (accepted wins, then rejected). A name
   * that is no minion id, or a key being written (`<id>.<pid>.tmp`), is not a key.
   */
  async #local(): Promise<Map<string, LocalState>> {
    const listing = await listKeys(this.o.pkiDir);
    const out = new Map<string, LocalState>();
    for (const state of [...LOCAL_STATES].reverse())
      for (const id of listing[DIR_OF[state]])
        if (isValidMinionId(id) && !id.endsWith('.tmp')) out.set(id, state);
    return out;
  }

  /** Writes a key into a state's folder, made aside in `pki_dir` so that no listing sees it half-made. */
  async #write(state: LocalState, id: string, pem: string): Promise<void> {
    const aside = join(this.o.pkiDir, `.cluster-${id}.${process.pid}`);
    await writeFile(aside, pem, { mode: 0o644 });
    try {
      await rename(aside, join(this.o.pkiDir, KEY_STATES[state], id));
    } catch (err) {
      await rm(aside, { force: true });
      throw err;
    }
  }

  async round(): Promise<RoundResult> {
    const applied = await this.#pull();
    this.#started = true;
    const recorded = await this.#push();
    return { applied, recorded };
  }

  async #pull(): Promise<number> {
    let applied = 0;
    for (;;) {
      const rows = await this.o.store.changesSince(this.#version);
      if (rows.length === 0) return applied;
      const local = await this.#local();
      for (const row of rows) {
        // a row this master recorded says what its key folders held then: applied again after a
        // later `salt-key -a` here, it would move the accepted key back to pending
        const mine = this.#started && row.origin === this.o.origin;
        // an id that is no minion id never becomes a path here, whatever the database holds
        if (!mine && isValidMinionId(row.id) && (await this.#apply(row, local.get(row.id)))) applied += 1;
        this.#version = Math.max(this.#version, row.version);
      }
    }
  }

  /** Brings the key of `row.id` here to the shared state; true when something changed. */
  async #apply(row: SharedKey, here: LocalState | undefined): Promise<boolean> {
    const { id } = row;
    if (row.state === 'deleted') {
      this.#known.delete(id);
      if (!here) return false;
      await this.o.keys.delete([{ id, state: here }]);
      return true;
    }
    const state = row.state;
    const pub = here ? await readKey(this.o.pkiDir, here, id) : undefined;
    this.#known.set(id, { state, pub: row.pub });
    if (here === state && pub !== undefined && sameKey(pub, row.pub)) return false;
    if (here && pub !== undefined && sameKey(pub, row.pub)) {
      // the same key in another state: a move, with the key manager's side effects
      if (state === 'accepted') await this.o.keys.accept([{ id, state: here }]);
      else if (state === 'rejected') await this.o.keys.reject([{ id, state: here }]);
      else {
        await this.#write('pending', id, row.pub);
        await deleteKey(this.o.pkiDir, here, id);
      }
      return true;
    }
    // unknown here, or another key under this id: the shared one replaces it
    if (here) await this.o.keys.delete([{ id, state: here }]);
    await this.#write(state, id, row.pub);
    return true;
  }

  async #push(): Promise<number> {
    const local = await this.#local();
    const changed: { id: string; state: SharedKeyState; pub: string }[] = [];
    for (const [id, state] of local) {
      const known = this.#known.get(id);
      if (known?.state === state) continue;
      const pub = await readKey(this.o.pkiDir, state, id);
      if (pub !== undefined) changed.push({ id, state, pub });
    }
    for (const id of this.#known.keys()) if (!local.has(id)) changed.push({ id, state: 'deleted', pub: '' });
    // a sign-in storm's new keys go in a few statements, not one each
    for (let i = 0; i < changed.length; i += PUT_BATCH) {
      const batch = changed.slice(i, i + PUT_BATCH);
      await this.o.store.putKeys(batch, this.o.origin);
      for (const { id, state, pub } of batch)
        if (state === 'deleted') this.#known.delete(id);
        else this.#known.set(id, { state, pub });
    }
    return changed.length;
  }
}
