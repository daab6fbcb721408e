/**
 * The cluster key (Salt 3007 keeps a `cluster.pem` in `cluster_pki_dir` for the same purpose):
 * a 32-byte secret in `<cluster_pki_dir>/cluster.key`, base64, 0600, shared by every master of
 * the cluster. Peers sign each message with it (HMAC-SHA256, peer-frame.ts). The first master to
 * start on an empty folder makes it; the others read it (a shared folder) or get a copy.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CLUSTER_ERR_KEY } from './errors.js';

export const CLUSTER_KEY_BYTES = 32;

export function clusterKeyPath(dir: string): string {
  return join(dir, 'cluster.key');
}

/** Decodes a key file's text; throws CLUSTER_ERR_KEY when it is not one. */
export function parseClusterKey(path: string, text: string): Buffer {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(trimmed)) throw new CLUSTER_ERR_KEY(path, 'not base64');
  const key = Buffer.from(trimmed, 'base64');
  if (key.length !== CLUSTER_KEY_BYTES)
    throw new CLUSTER_ERR_KEY(path, `${key.length} bytes, expected ${CLUSTER_KEY_BYTES}`);
  return key;
}

/** Reads the cluster key, making it first when the folder has none (a race between masters is safe). */
export async function loadClusterKey(dir: string): Promise<Buffer> {
  const path = clusterKeyPath(dir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // written aside, then linked into place: another master never reads a half-written key
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, `${randomBytes(CLUSTER_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  try {
    await link(aside, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await rm(aside, { force: true });
  }
  return parseClusterKey(path, await readFile(path, 'utf8'));
}
