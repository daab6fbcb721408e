/**
 * The master's shared secrets on disk under `cachedir`:
 * - the AES key that encrypts publishes (Salt keeps it in shared memory; tsalt's children
 *   are separate processes, so the key lives in a 0600 file and a rotation nudges them);
 * - the publish serial reservation, so a restarted publisher never reuses a serial;
 * - the local user key file `.<user>_key` that CLI clients present to publish;
 * - per-minion session keys `sessions/<id>`.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { userKeyPath } from '../client/user-key-path.js';
import { Crypticle } from '../kernel/crypt/crypticle.js';

export { userKeyPath };

export interface AesSecret {
  /** The 76-character Crypticle key string. */
  key: string;
  /** Identifies this key generation (serial reservations belong to one generation). */
  generation: string;
  /** When the key was made (ms since epoch). */
  created: number;
}

async function writeSecret(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, path);
}

export function aesKeyPath(cachedir: string): string {
  return join(cachedir, '.aes');
}

/** Makes a new AES key generation and stores it. */
export async function rotateAesKey(cachedir: string): Promise<AesSecret> {
  const secret: AesSecret = {
    key: Crypticle.generateKeyString(),
    generation: randomUUID(),
    created: Date.now(),
  };
  await writeSecret(aesKeyPath(cachedir), JSON.stringify(secret));
  return secret;
}

/** Reads the current AES key generation. */
export async function readAesKey(cachedir: string): Promise<AesSecret> {
  return JSON.parse(await readFile(aesKeyPath(cachedir), 'utf8')) as AesSecret;
}

/**
 * Hands out publish serials in blocks: the next block's end is written to disk before any
 * serial of it is used, so after a crash the publisher resumes past every serial it may
 * have sent with this key.
 */
export class SerialReservation {
  static readonly BLOCK = 1000;
  readonly #path: string;
  #generation = '';
  #next = 1;
  #reservedUpTo = 0;

  constructor(cachedir: string) {
    this.#path = join(cachedir, '.aes_serial');
  }

  /** Starts (or restarts) counting for a key generation. */
  async reset(generation: string): Promise<void> {
    this.#generation = generation;
    this.#next = 1;
    this.#reservedUpTo = 0;
    try {
      const saved = JSON.parse(await readFile(this.#path, 'utf8')) as { generation: string; upTo: number };
      if (saved.generation === generation) this.#next = saved.upTo + 1;
    } catch {
      // no reservation yet for any key
    }
    await this.#reserve();
  }

  async #reserve(): Promise<void> {
    this.#reservedUpTo = this.#next + SerialReservation.BLOCK - 1;
    await writeSecret(this.#path, JSON.stringify({ generation: this.#generation, upTo: this.#reservedUpTo }));
  }

  /** The next serial for a publish. */
  async next(): Promise<number> {
    if (this.#next > this.#reservedUpTo) await this.#reserve();
    return this.#next++;
  }
}

/** Writes a fresh user key (Salt rewrites it at every master start). */
export async function writeUserKey(cachedir: string, user: string): Promise<string> {
  const key = Crypticle.generateKeyString();
  await writeSecret(userKeyPath(cachedir, user), key);
  return key;
}

export function sessionKeyPath(cachedir: string, id: string): string {
  return join(cachedir, 'sessions', id);
}

/**
 * The session key of a minion: reused while younger than `maxAgeSeconds`, else made anew
 * (Salt's `ReqServerChannel.session_key`).
 */
export async function sessionKeyFor(cachedir: string, id: string, maxAgeSeconds: number): Promise<string> {
  const path = sessionKeyPath(cachedir, id);
  // read synchronously (a request worker may block; a missing file throws nothing here)
  const st = statSync(path, { throwIfNoEntry: false });
  if (st && Date.now() - st.mtimeMs < maxAgeSeconds * 1000) {
    try {
      return readFileSync(path, 'utf8').trim();
    } catch {
      // removed meanwhile: make one
    }
  }
  const dir = join(cachedir, 'sessions');
  if (!madeSessionDirs.has(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    madeSessionDirs.add(dir);
  }
  const key = Crypticle.generateKeyString();
  // synchronous too: a sign-in storm otherwise queues two thread-pool jobs per minion
  const tmp = `${path}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  writeFileSync(tmp, key, { mode: 0o600 });
  renameSync(tmp, path);
  return key;
}

/** Session folders made by this thread (made once; the cachedir is not removed under a master). */
const madeSessionDirs = new Set<string>();

/** The stored session key of a minion, or undefined. */
export async function readSessionKey(cachedir: string, id: string): Promise<string | undefined> {
  try {
    return (await readFile(sessionKeyPath(cachedir, id), 'utf8')).trim();
  } catch {
    return undefined;
  }
}
