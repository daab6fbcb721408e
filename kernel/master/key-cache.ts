/**
 * Per-worker caches of minion public keys and session Crypticles. Entries are checked against
 * the files' mtimes so a key accepted, deleted or rotated by another process is seen at once.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isValidMinionId } from '../auth/minion-id.js';
import { KEY_STATES } from '../auth/pki.js';
import { Crypticle } from '../crypt/crypticle.js';
import { sessionKeyPath } from './secrets.js';

interface Entry<T> {
  mtimeMs: number;
  value: T;
}

function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

export class KeyCache {
  readonly #pkiDir: string;
  readonly #cachedir: string;
  readonly #pubs = new Map<string, Entry<string>>();
  readonly #sessions = new Map<string, Entry<Crypticle>>();

  constructor(pkiDir: string, cachedir: string) {
    this.#pkiDir = pkiDir;
    this.#cachedir = cachedir;
  }

  /** The accepted public key of `id`, or undefined when it is not accepted. */
  acceptedKey(id: string): string | undefined {
    if (!isValidMinionId(id)) return undefined;
    const path = join(this.#pkiDir, KEY_STATES.accepted, id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) {
      this.#pubs.delete(id);
      return undefined;
    }
    const hit = this.#pubs.get(id);
    if (hit && hit.mtimeMs === mtime) return hit.value;
    const value = readFileSync(path, 'utf8');
    this.#pubs.set(id, { mtimeMs: mtime, value });
    return value;
  }

  /** The session Crypticle of `id`, or undefined when it has none. */
  session(id: string): Crypticle | undefined {
    if (!isValidMinionId(id)) return undefined;
    const path = sessionKeyPath(this.#cachedir, id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) return undefined;
    const hit = this.#sessions.get(id);
    if (hit && hit.mtimeMs === mtime) return hit.value;
    const value = new Crypticle(readFileSync(path, 'utf8').trim());
    this.#sessions.set(id, { mtimeMs: mtime, value });
    return value;
  }

  /** A Crypticle for a key string this worker just issued. */
  remember(id: string, key: string): Crypticle {
    const c = new Crypticle(key);
    const mtime = mtimeOf(sessionKeyPath(this.#cachedir, id));
    if (mtime !== undefined) this.#sessions.set(id, { mtimeMs: mtime, value: c });
    return c;
  }
}
