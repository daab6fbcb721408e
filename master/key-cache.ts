/**
 * Per-thread caches of minion public keys and session keys: a request worker's own sign-ins
 * ({@link KeyCache.learn}), on the router thread those the workers hand over
 * ({@link KeyCache.learnFrom}), and what either reads from the key files. Entries are checked
 * against the files' mtimes, at most once per {@link RECHECK_MS} per minion, so a key accepted,
 * deleted or rotated by another process is seen within that time; a caller whose decryption
 * fails asks again with `fresh` to re-read at once.
 *
 * The check is a `stat` of the key's folder, not of each file, while the folder stands still:
 * everything that changes a key (salt-key, a sign-in, a new session) writes a new file and
 * renames it into place, or removes one, and so moves the folder's mtime. A `stat` per minion
 * per second was ~4 % of a return's cost on the request server's main thread. A file edited in
 * place, which moves no folder mtime, is still seen within {@link BACKSTOP_MS}.
 *
 * Memory: a session is kept as its Crypticle (its key string and 56 key bytes, ~0.4 KiB), one
 * per minion: a bounded cache of them would be cycled through by a `test.ping` to more minions
 * than it holds, and miss every time.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isValidMinionId } from '../kernel/auth/minion-id.js';
import { KEY_STATES } from '../kernel/auth/pki.js';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { sessionKeyPath } from './session-keys.js';

/** How long a checked entry is trusted without looking at its folder or file again. */
export const RECHECK_MS = 1000;
/** How long an entry is trusted on its folder's word alone, without a `stat` of its file. */
export const BACKSTOP_MS = 60_000;
/**
 * A folder changed less than this long ago is not trusted to stand still: file times tick in
 * steps of the kernel's clock, so a second change within the same step leaves the mtime as it
 * was (git's "racily clean" entries).
 */
const SETTLE_MS = 1000;

interface Entry<T> {
  mtimeMs: number;
  value: T;
  /** When the entry was last confirmed (ms, monotonic). */
  checkedAt: number;
  /** When its file was last `stat`ed (ms, monotonic). */
  statAt: number;
  /** Its folder's generation then. */
  generation: number;
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

/**
 * A folder's generation: the same number while the folder's mtime stands still (and has
 * settled), a new one whenever it may have changed.
 */
class FolderGeneration {
  readonly #path: string;
  readonly #recheckMs: number;
  #mtimeMs: number | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #settled = false;
  #generation = 0;

  constructor(path: string, recheckMs: number) {
    this.#path = path;
    this.#recheckMs = recheckMs;
  }

  /** When the folder was last `stat`ed (ms, monotonic): what its generation is as of. */
  get checkedAt(): number {
    return this.#checkedAt;
  }

  current(): number {
    const t = now();
    if (t - this.#checkedAt < this.#recheckMs) return this.#generation;
    this.#checkedAt = t;
    const mtime = mtimeOf(this.#path);
    const settled = mtime !== undefined && Date.now() - mtime >= SETTLE_MS;
    // entries confirmed while the folder was unsettled are confirmed again once it settles
    if (!settled || !this.#settled || mtime !== this.#mtimeMs) this.#generation++;
    this.#mtimeMs = mtime;
    this.#settled = settled;
    return this.#generation;
  }
}

/** What {@link KeyCache.learn} found: the session's Crypticle and the mtimes of the key files. */
export interface LearnedKeys {
  session: Crypticle;
  pubMtimeMs?: number;
  sessionMtimeMs?: number;
}

/** A sign-in another thread settled, for {@link KeyCache.learnFrom}. */
export interface SignedInKeys {
  id: string;
  pub: string;
  session: string;
  /** The key files' mtimes as that thread saw them; a value without one is not taken in. */
  pubMtimeMs?: number;
  sessionMtimeMs?: number;
}

/** The Crypticle of a session key: the one already held when the key is the same. */
function sessionCrypticle(key: string, known: Crypticle | undefined): Crypticle {
  return known?.keyString === key ? known : new Crypticle(key);
}

export class KeyCache {
  readonly #pkiDir: string;
  readonly #cachedir: string;
  readonly #pubs = new Map<string, Entry<string>>();
  readonly #sessions = new Map<string, Entry<Crypticle>>();

  readonly #recheckMs: number;
  readonly #backstopMs: number;
  readonly #pubFolder: FolderGeneration;
  readonly #sessionFolder: FolderGeneration;

  constructor(pkiDir: string, cachedir: string, opts: { recheckMs?: number; backstopMs?: number } = {}) {
    this.#pkiDir = pkiDir;
    this.#cachedir = cachedir;
    this.#recheckMs = opts.recheckMs ?? RECHECK_MS;
    this.#backstopMs = opts.backstopMs ?? BACKSTOP_MS;
    this.#pubFolder = new FolderGeneration(join(pkiDir, KEY_STATES.accepted), this.#recheckMs);
    this.#sessionFolder = new FolderGeneration(join(cachedir, 'sessions'), this.#recheckMs);
  }

  /** True when `hit` may be returned without a `stat` of its file (and marks it confirmed). */
  #stillGood<T>(hit: Entry<T>, folder: FolderGeneration): boolean {
    const t = now();
    if (t - hit.checkedAt < this.#recheckMs) return true;
    if (folder.current() !== hit.generation || t - hit.statAt >= this.#backstopMs) return false;
    // vouched for by the folder as of its last stat, not as of now
    hit.checkedAt = folder.checkedAt;
    return true;
  }

  #entry<T>(mtimeMs: number, value: T, generation: number): Entry<T> {
    const t = now();
    return { mtimeMs, value, checkedAt: t, statAt: t, generation };
  }

  /** Marks `hit` confirmed by a `stat` of its file. */
  #confirmed<T>(hit: Entry<T>, generation: number): T {
    hit.checkedAt = hit.statAt = now();
    hit.generation = generation;
    return hit.value;
  }

  /**
   * The cached value of `id` in `entries`, confirmed by its folder or, failing that, by a `stat`
   * of its file (`fresh`: by the file at once); read again when the file changed, dropped when it
   * is gone.
   */
  #lookup<T>(
    entries: Map<string, Entry<T>>,
    folder: FolderGeneration,
    id: string,
    pathOf: (id: string) => string,
    read: (path: string, known: T | undefined) => T,
    fresh = false,
  ): T | undefined {
    if (!isValidMinionId(id)) return undefined;
    const hit = entries.get(id);
    if (hit && !fresh && this.#stillGood(hit, folder)) return hit.value;
    // the generation is taken before the stat: a change after it starts a new one
    const generation = folder.current();
    const path = pathOf(id);
    const mtime = mtimeOf(path);
    if (mtime === undefined) {
      entries.delete(id);
      return undefined;
    }
    if (hit && hit.mtimeMs === mtime) return this.#confirmed(hit, generation);
    const value = read(path, hit?.value);
    entries.set(id, this.#entry(mtime, value, generation));
    return value;
  }

  readonly #pubPath = (id: string): string => join(this.#pkiDir, KEY_STATES.accepted, id);
  readonly #sessionPath = (id: string): string => sessionKeyPath(this.#cachedir, id);
  readonly #readPub = (path: string): string => readFileSync(path, 'utf8');
  readonly #readSession = (path: string, known: Crypticle | undefined): Crypticle =>
    sessionCrypticle(readFileSync(path, 'utf8').trim(), known);

  /** The accepted public key of `id`, or undefined when it is not accepted. */
  acceptedKey(id: string): string | undefined {
    return this.#lookup(this.#pubs, this.#pubFolder, id, this.#pubPath, this.#readPub);
  }

  /**
   * The session Crypticle of `id`, or undefined when it has none. `fresh` re-reads the file now
   * (after a load failed to decrypt: another worker may have issued a new key).
   */
  session(id: string, opts: { fresh?: boolean } = {}): Crypticle | undefined {
    return this.#lookup(
      this.#sessions,
      this.#sessionFolder,
      id,
      this.#sessionPath,
      this.#readSession,
      opts.fresh,
    );
  }

  /**
   * Caches `value` for `id`, dated from a `stat` of its file, and returns that mtime. With
   * `expected` (the mtime whoever settled the value saw; NaN: unknown), only while the file has
   * it: else (the file changed or went since) the entry is dropped, and the next lookup reads
   * the file.
   */
  #seed<T>(
    entries: Map<string, Entry<T>>,
    folder: FolderGeneration,
    path: string,
    id: string,
    value: T,
    expected: number | undefined,
  ): number | undefined {
    const generation = folder.current();
    const mtime = mtimeOf(path);
    if (mtime === undefined || (expected !== undefined && mtime !== expected)) {
      entries.delete(id);
      return undefined;
    }
    entries.set(id, this.#entry(mtime, value, generation));
    return mtime;
  }

  /**
   * Takes in what a sign-in in this thread settled for `id`: its accepted key and its session
   * key, so that its next request reads no file. Returns the session's Crypticle and the files'
   * mtimes, for the thread that will handle the minion's next requests ({@link learnFrom}).
   */
  learn(id: string, keys: { pub?: string; session: string }): LearnedKeys {
    return this.#take(id, keys.pub, keys.session, undefined, undefined);
  }

  /**
   * Takes in a sign-in another thread settled: each value only while its file still has the
   * mtime that thread saw (a file changed or removed since is read again, not shadowed).
   */
  learnFrom(s: SignedInKeys): void {
    this.#take(s.id, s.pub, s.session, s.pubMtimeMs ?? Number.NaN, s.sessionMtimeMs ?? Number.NaN);
  }

  /** What {@link learn} and {@link learnFrom} share; the expected mtimes are as `#seed` takes them. */
  #take(
    id: string,
    pub: string | undefined,
    sessionKey: string,
    pubExpected: number | undefined,
    sessionExpected: number | undefined,
  ): LearnedKeys {
    const session = this.sessionFor(id, sessionKey);
    if (!isValidMinionId(id)) return { session };
    const pubMtimeMs =
      pub === undefined
        ? undefined
        : this.#seed(this.#pubs, this.#pubFolder, this.#pubPath(id), id, pub, pubExpected);
    const sessionMtimeMs = this.#seed(
      this.#sessions,
      this.#sessionFolder,
      this.#sessionPath(id),
      id,
      session,
      sessionExpected,
    );
    return { session, pubMtimeMs, sessionMtimeMs };
  }

  /**
   * The Crypticle of a session key another thread vouches for: the cached one when it holds that
   * key (no `stat`, no read), else a new one.
   */
  sessionFor(id: string, key: string): Crypticle {
    return sessionCrypticle(key, this.#sessions.get(id)?.value);
  }

  /** Number of minions with a cached accepted key and session. */
  get sizes(): { pubs: number; sessions: number } {
    return { pubs: this.#pubs.size, sessions: this.#sessions.size };
  }
}
