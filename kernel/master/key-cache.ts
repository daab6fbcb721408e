/**
 * Per-worker caches of minion public keys and session keys. Entries are checked against the
 * files' mtimes, at most once per {@link RECHECK_MS} per minion, so a key accepted, deleted or
 * rotated by another process is seen within that time (a `stat` per request was a tenth of a
 * return's cost); a caller whose decryption fails asks again with `fresh` to re-read at once.
 *
 * Memory: a session is kept as its Crypticle (its key string and 56 key bytes, ~0.4 KiB), one
 * per minion: a bounded cache of them would be cycled through by a `test.ping` to more minions
 * than it holds, and miss every time.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isValidMinionId } from '../auth/minion-id.js';
import { KEY_STATES } from '../auth/pki.js';
import { Crypticle } from '../crypt/crypticle.js';
import { sessionKeyPath } from './secrets.js';

/** How long a checked entry is trusted without looking at its file again. */
export const RECHECK_MS = 1000;

interface Entry<T> {
  mtimeMs: number;
  value: T;
  /** When the file's mtime was last compared (ms, monotonic). */
  checkedAt: number;
}

const now = (): number => performance.now();

function mtimeOf(path: string): number | undefined {
  // a missing file is common (a new minion has no session yet): no thrown ENOENT for it
  try {
    return statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  } catch {
    return undefined;
  }
}

export class KeyCache {
  readonly #pkiDir: string;
  readonly #cachedir: string;
  readonly #pubs = new Map<string, Entry<string>>();
  readonly #sessions = new Map<string, Entry<Crypticle>>();

  readonly #recheckMs: number;

  constructor(pkiDir: string, cachedir: string, opts: { recheckMs?: number } = {}) {
    this.#pkiDir = pkiDir;
    this.#cachedir = cachedir;
    this.#recheckMs = opts.recheckMs ?? RECHECK_MS;
  }

  /** The accepted public key of `id`, or undefined when it is not accepted. */
  acceptedKey(id: string): string | undefined {
    if (!isValidMinionId(id)) return undefined;
    const hit = this.#pubs.get(id);
    if (hit && now() - hit.checkedAt < this.#recheckMs) return hit.value;
    const path = join(this.#pkiDir, KEY_STATES.accepted, id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) {
      this.#pubs.delete(id);
      return undefined;
    }
    if (hit && hit.mtimeMs === mtime) {
      hit.checkedAt = now();
      return hit.value;
    }
    const value = readFileSync(path, 'utf8');
    this.#pubs.set(id, { mtimeMs: mtime, value, checkedAt: now() });
    return value;
  }

  /**
   * The session Crypticle of `id`, or undefined when it has none. `fresh` re-reads the file now
   * (after a load failed to decrypt: another worker may have issued a new key).
   */
  session(id: string, opts: { fresh?: boolean } = {}): Crypticle | undefined {
    if (!isValidMinionId(id)) return undefined;
    const hit = this.#sessions.get(id);
    if (hit && !opts.fresh && now() - hit.checkedAt < this.#recheckMs) return hit.value;
    const path = sessionKeyPath(this.#cachedir, id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) {
      this.#sessions.delete(id);
      return undefined;
    }
    if (hit && hit.mtimeMs === mtime) {
      hit.checkedAt = now();
      return hit.value;
    }
    return this.#keep(id, mtime, readFileSync(path, 'utf8').trim());
  }

  /** A Crypticle for a key string this worker just issued. */
  remember(id: string, key: string): Crypticle {
    const mtime = mtimeOf(sessionKeyPath(this.#cachedir, id));
    return mtime === undefined ? new Crypticle(key) : this.#keep(id, mtime, key);
  }

  /** Number of minions with a cached accepted key and session. */
  get sizes(): { pubs: number; sessions: number } {
    return { pubs: this.#pubs.size, sessions: this.#sessions.size };
  }

  #keep(id: string, mtimeMs: number, key: string): Crypticle {
    const known = this.#sessions.get(id)?.value;
    const value = known?.keyString === key ? known : new Crypticle(key);
    this.#sessions.set(id, { mtimeMs, value, checkedAt: now() });
    return value;
  }
}
