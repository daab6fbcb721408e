/**
 * The accepted minion ids a publish targets, kept per thread (each request worker has its
 * own): the accepted-keys folder is listed again only when its mtime changed, so a publish
 * costs one `stat` instead of reading the key folders (~0.14 ms of CPU with 10 keys, more
 * with thousands). Keys are accepted by other processes and threads (`salt-key`, another
 * worker's auto-accept), and every such change renames a file into or out of the folder,
 * which moves its mtime: the next publish sees it at once, with no wait.
 *
 * A folder's mtime has a coarse clock (a kernel tick, or a second on some filesystems), so
 * two changes close together may leave it the same. A listing is therefore trusted only when
 * it was read {@link SETTLED_MS} after the folder's last change: any later change then gets a
 * newer mtime. Until then every publish lists the folder again, as it did without the cache.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { KEY_STATES, listKeyStateSync } from '../auth/pki.js';

/** How long after the folder's last change a listing of it is trusted (well above any mtime granularity). */
export const SETTLED_MS = 2000;

interface Listing {
  mtimeMs: number;
  ino: number;
  ids: readonly string[];
}

/** Settled listings by folder path. */
const listings = new Map<string, Listing>();

/** The accepted minion ids under `pkiDir`, sorted (the listing is shared: do not change it). */
export function acceptedMinionIds(pkiDir: string): readonly string[] {
  const dir = join(pkiDir, KEY_STATES.accepted);
  // the clock is read before the stat: a change after it is stamped no earlier than a tick before
  const now = Date.now();
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) {
    listings.delete(dir);
    return [];
  }
  const hit = listings.get(dir);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.ino === st.ino) return hit.ids;
  const ids = Object.freeze(listKeyStateSync(pkiDir, 'accepted'));
  if (now - st.mtimeMs > SETTLED_MS) listings.set(dir, { mtimeMs: st.mtimeMs, ino: st.ino, ids });
  else listings.delete(dir);
  return ids;
}
