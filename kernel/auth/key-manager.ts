/**
 * What `salt-key` does to the key folders (Salt's `salt/key.py` `Key`): accept, reject and
 * delete keys by glob, with `salt/key` events and, for deletions and rejections, the AES
 * rotation drop file and the removal of the minion's session key.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { globMatch } from '../targeting/glob.js';
import { deleteKey, type KeyListing, type KeyState, listKeys, moveKey } from './pki.js';

const STATE_OF_DIR: Record<keyof KeyListing, KeyState> = {
  minions: 'accepted',
  minions_pre: 'pending',
  minions_rejected: 'rejected',
  minions_denied: 'denied',
};

/** The keys matching `pattern` (a glob) in the given states. */
export function matchKeys(
  listing: KeyListing,
  pattern: string,
  states: readonly KeyState[],
): { id: string; state: KeyState }[] {
  const out: { id: string; state: KeyState }[] = [];
  for (const [dir, ids] of Object.entries(listing) as [keyof KeyListing, string[]][]) {
    const state = STATE_OF_DIR[dir];
    if (!states.includes(state)) continue;
    for (const id of ids) if (id === pattern || globMatch(pattern, id)) out.push({ id, state });
  }
  return out;
}

export interface KeyManagerOptions {
  pkiDir: string;
  cachedir: string;
  rotateAesKey: boolean;
  /** Called for each change, to fire `salt/key`. */
  onEvent?(tag: string, data: Record<string, unknown>): void;
}

export class KeyManager {
  readonly #o: KeyManagerOptions;

  constructor(opts: KeyManagerOptions) {
    this.#o = opts;
  }

  list(): Promise<KeyListing> {
    return listKeys(this.#o.pkiDir);
  }

  async #afterRemoval(id: string): Promise<void> {
    await rm(join(this.#o.cachedir, 'sessions', id), { force: true });
    await rm(join(this.#o.cachedir, 'minions', id), { recursive: true, force: true });
    if (this.#o.rotateAesKey)
      await writeFile(join(this.#o.cachedir, '.dfn'), '', { mode: 0o400 }).catch(async () => {
        await rm(join(this.#o.cachedir, '.dfn'), { force: true });
        await writeFile(join(this.#o.cachedir, '.dfn'), '', { mode: 0o400 });
      });
  }

  /** Accepts the given keys (pending, or rejected with `includeRejected`). */
  async accept(keys: readonly { id: string; state: KeyState }[]): Promise<string[]> {
    const done: string[] = [];
    for (const k of keys) {
      if (k.state === 'accepted') continue;
      if (await moveKey(this.#o.pkiDir, k.state, 'accepted', k.id)) {
        done.push(k.id);
        this.#o.onEvent?.('salt/key', { result: true, act: 'accept', id: k.id });
      }
    }
    return done;
  }

  async reject(keys: readonly { id: string; state: KeyState }[]): Promise<string[]> {
    const done: string[] = [];
    for (const k of keys) {
      if (k.state === 'rejected') continue;
      if (await moveKey(this.#o.pkiDir, k.state, 'rejected', k.id)) {
        done.push(k.id);
        await this.#afterRemoval(k.id);
        this.#o.onEvent?.('salt/key', { result: true, act: 'reject', id: k.id });
      }
    }
    return done;
  }

  async delete(keys: readonly { id: string; state: KeyState }[]): Promise<string[]> {
    const done: string[] = [];
    for (const k of keys) {
      if (await deleteKey(this.#o.pkiDir, k.state, k.id)) {
        done.push(k.id);
        await this.#afterRemoval(k.id);
        this.#o.onEvent?.('salt/key', { result: true, act: 'delete', id: k.id });
      }
    }
    return done;
  }
}
