/**
 * The daemon's pidfile: written at start, refused when it names another live process,
 * overwritten when stale, removed at shutdown.
 */

import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SALT_ERR_PROCESS_DIR, SALT_ERR_PROCESS_RUNNING } from '../errors.js';
import { errnoCode } from '../guards.js';

/** Whether a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}

/** The pid a pidfile names, or `undefined` if it is missing, empty or not a pid. */
export async function readPidfile(path: string): Promise<number | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'EISDIR') return undefined;
    throw new SALT_ERR_PROCESS_DIR(path, `cannot read pidfile (${errnoCode(err) ?? String(err)})`, {
      cause: err,
    });
  }
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return undefined;
  const pid = Number(trimmed);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Writes `pid` (default: this process) into `path`, creating its directory. Throws
 * SALT_ERR_PROCESS_RUNNING if the file names another live process; a stale file is replaced.
 * The write is atomic (temp file + rename), so a reader never sees a half-written pid.
 */
export async function writePidfile(path: string, pid: number = process.pid): Promise<void> {
  const dir = dirname(path);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw new SALT_ERR_PROCESS_DIR(
      dir,
      `cannot create pidfile directory (${errnoCode(err) ?? String(err)})`,
      {
        cause: err,
      },
    );
  }
  const existing = await readPidfile(path);
  if (existing !== undefined && existing !== pid && existing !== process.pid && isProcessAlive(existing)) {
    throw new SALT_ERR_PROCESS_RUNNING(existing, path, { details: { pid: existing, pidfile: path } });
  }
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, `${pid}\n`, { mode: 0o644 });
    await rename(tmp, path);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw new SALT_ERR_PROCESS_DIR(dir, `cannot write pidfile ${path} (${errnoCode(err) ?? String(err)})`, {
      cause: err,
    });
  }
}

/**
 * Removes the pidfile if it names `pid` (default: this process), so a daemon never deletes
 * the pidfile of another one. Missing file: nothing to do. Returns whether it removed it.
 */
export async function removePidfile(path: string, pid: number = process.pid): Promise<boolean> {
  const named = await readPidfile(path).catch(() => undefined);
  if (named !== pid) return false;
  try {
    await unlink(path);
    return true;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return false;
    throw new SALT_ERR_PROCESS_DIR(
      dirname(path),
      `cannot remove pidfile ${path} (${errnoCode(err) ?? String(err)})`,
      {
        cause: err,
      },
    );
  }
}
