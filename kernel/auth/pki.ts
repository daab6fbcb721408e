/**
 * The master's key folders under `pki_dir` (Salt's `salt/key.py`): accepted, pending,
 * rejected and denied minion keys, one file per minion id holding its public key PEM.
 */
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { threadId } from 'node:worker_threads';
import { SALT_ERR_AUTH_BAD_ID } from '../errors.js';
import { isValidMinionId } from './minion-id.js';

/** The four key states and their folder names. */
export const KEY_STATES = {
  accepted: 'minions',
  pending: 'minions_pre',
  rejected: 'minions_rejected',
  denied: 'minions_denied',
} as const;

export type KeyState = keyof typeof KEY_STATES;

export interface KeyListing {
  minions: string[];
  minions_pre: string[];
  minions_rejected: string[];
  minions_denied: string[];
}

/** Creates the key folders (mode 0700). */
export async function ensurePkiDirs(pkiDir: string): Promise<void> {
  await mkdir(pkiDir, { recursive: true, mode: 0o700 });
  for (const dir of [...Object.values(KEY_STATES), 'minions_autosign']) {
    await mkdir(join(pkiDir, dir), { recursive: true, mode: 0o700 });
  }
}

function keyPath(pkiDir: string, state: KeyState, id: string): string {
  if (!isValidMinionId(id)) throw new SALT_ERR_AUTH_BAD_ID(id);
  return join(pkiDir, KEY_STATES[state], id);
}

/** The key ids among a folder's names: hidden files and names no minion could have left out. */
function keyIds(names: readonly string[]): string[] {
  return names.filter((n) => !n.startsWith('.') && isValidMinionId(n)).sort();
}

async function listDir(path: string): Promise<string[]> {
  try {
    return keyIds(await readdir(path));
  } catch {
    return [];
  }
}

/** Every key id by state, sorted. */
export async function listKeys(pkiDir: string): Promise<KeyListing> {
  const [minions, minions_pre, minions_rejected, minions_denied] = await Promise.all([
    listDir(join(pkiDir, KEY_STATES.accepted)),
    listDir(join(pkiDir, KEY_STATES.pending)),
    listDir(join(pkiDir, KEY_STATES.rejected)),
    listDir(join(pkiDir, KEY_STATES.denied)),
  ]);
  return { minions, minions_pre, minions_rejected, minions_denied };
}

/**
 * The ids in one key state, sorted, read without the event loop (for the request workers,
 * which may block, and which need only the accepted keys to target a publish).
 */
export function listKeyStateSync(pkiDir: string, state: KeyState): string[] {
  try {
    return keyIds(readdirSync(join(pkiDir, KEY_STATES[state])));
  } catch {
    return [];
  }
}

/** The stored public key of `id` in `state`, or undefined. */
export async function readKey(pkiDir: string, state: KeyState, id: string): Promise<string | undefined> {
  try {
    return await readFile(keyPath(pkiDir, state, id), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * {@link readKey} without the event loop, for the request workers (Salt's MWorkers), which
 * may block: a sign-in looks in three or four key folders, and a missing file costs one
 * `access` here instead of an fs/promises open and a thrown ENOENT.
 */
export function readKeySync(pkiDir: string, state: KeyState, id: string): string | undefined {
  const path = keyPath(pkiDir, state, id);
  if (!existsSync(path)) return undefined;
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes the public key of `id` into `state` (atomically; the hidden temp file is never listed). */
export async function writeKey(pkiDir: string, state: KeyState, id: string, pem: string): Promise<void> {
  const path = keyPath(pkiDir, state, id);
  const tmp = join(path, '..', `.${id}.${process.pid}.tmp`);
  await writeFile(tmp, pem, { mode: 0o644 });
  await rename(tmp, path);
}

/** {@link writeKey} without the event loop, for the request workers. */
export function writeKeySync(pkiDir: string, state: KeyState, id: string, pem: string): void {
  const path = keyPath(pkiDir, state, id);
  const tmp = join(path, '..', `.${id}.${process.pid}.${threadId}.tmp`);
  writeFileSync(tmp, pem, { mode: 0o644 });
  renameSync(tmp, path);
}

/** Moves a key between states; false when it was not in `from`. */
export async function moveKey(pkiDir: string, from: KeyState, to: KeyState, id: string): Promise<boolean> {
  try {
    await rename(keyPath(pkiDir, from, id), keyPath(pkiDir, to, id));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Removes a key; false when it was not there. */
export async function deleteKey(pkiDir: string, state: KeyState, id: string): Promise<boolean> {
  try {
    await rm(keyPath(pkiDir, state, id));
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Salt's `clean_key` comparison of two PEM texts: equal once surrounding whitespace is gone. */
export function sameKey(a: string, b: string): boolean {
  return a.trim().replace(/\r\n/g, '\n') === b.trim().replace(/\r\n/g, '\n');
}
