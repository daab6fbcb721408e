/** Per-minion session keys `cachedir/sessions/<id>` (Salt's `ReqServerChannel.session_key`). */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Crypticle } from '../kernel/crypt/crypticle.js';

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
