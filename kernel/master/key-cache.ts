/**
 * Per-worker caches of minion public keys and session keys. Entries are checked against the
 * files' mtimes, at most once per {@link RECHECK_MS} per minion, so a key accepted, deleted or
 * rotated by another process is seen within that time (a `stat` per request was a tenth of a
 * return's cost); a caller whose decryption fails asks again with `fresh` to re-read at once.
 *
 * Memory: a session is kept as its key string (~0.2 KiB); a Crypticle holds two native
 * KeyObjects (~2 KiB), so only the most recently used {@link SESSION_OBJECTS} are kept as
 * Crypticles (making one costs ~15 µs). With the worker pool's per-minion affinity each minion
 * is cached in one worker.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isValidMinionId } from '../auth/minion-id.js';
import { KEY_STATES } from '../auth/pki.js';
import { Crypticle } from '../crypt/crypticle.js';
import { sessionKeyPath } from './secrets.js';

/** Session Crypticles kept ready per worker (least recently used dropped first). */
export const SESSION_OBJECTS = 4096;

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
  readonly #sessions = new Map<string, Entry<string>>();
  /** Recently used session Crypticles, in use order (a Map keeps insertion order). */
  readonly #ready = new Map<string, { key: string; crypticle: Crypticle }>();

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
    let hit = this.#sessions.get(id);
    if (hit && !opts.fresh && now() - hit.checkedAt < this.#recheckMs) return this.#crypticle(id, hit.value);
    const path = sessionKeyPath(this.#cachedir, id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) {
      this.#sessions.delete(id);
      this.#ready.delete(id);
      return undefined;
    }
    if (!hit || hit.mtimeMs !== mtime) {
      hit = { mtimeMs: mtime, value: readFileSync(path, 'utf8').trim(), checkedAt: now() };
      this.#sessions.set(id, hit);
    } else hit.checkedAt = now();
    return this.#crypticle(id, hit.value);
  }

  /** A Crypticle for a key string this worker just issued. */
  remember(id: string, key: string): Crypticle {
    const mtime = mtimeOf(sessionKeyPath(this.#cachedir, id));
    if (mtime !== undefined) this.#sessions.set(id, { mtimeMs: mtime, value: key, checkedAt: now() });
    return this.#crypticle(id, key);
  }

  /** Number of minions with a cached session key, and of ready Crypticles. */
  get sizes(): { pubs: number; sessions: number; crypticles: number } {
    return { pubs: this.#pubs.size, sessions: this.#sessions.size, crypticles: this.#ready.size };
  }

  #crypticle(id: string, key: string): Crypticle {
    const ready = this.#ready.get(id);
    this.#ready.delete(id);
    const crypticle = ready && ready.key === key ? ready.crypticle : new Crypticle(key);
    this.#ready.set(id, { key, crypticle });
    if (this.#ready.size > SESSION_OBJECTS) {
      const oldest = this.#ready.keys().next();
      if (!oldest.done) this.#ready.delete(oldest.value);
    }
    return crypticle;
  }
}
