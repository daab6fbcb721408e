/**
 * What a failed job store operation means: the write lock was taken (wait and try again), the
 * file is damaged (check it, move it aside), or the store cannot be written just now (keep the
 * write in memory and retry), as opposed to a write that is itself refused (a duplicate return).
 */
import { SaltError } from '../../kernel/index.js';

function codeOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

/** The lock was taken (better-sqlite3 gives extended codes too, e.g. `SQLITE_BUSY_RECOVERY`). */
export function isBusy(err: unknown): boolean {
  const code = codeOf(err);
  return code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED');
}

/** SQLite found the file damaged, rather than failing to reach it. */
export function isCorrupt(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT');
}

/** SQLite result codes (or their prefixes) that say nothing about the write itself. */
const SQLITE_UNWRITABLE = [
  'SQLITE_FULL',
  'SQLITE_IOERR',
  'SQLITE_CANTOPEN',
  'SQLITE_READONLY',
  'SQLITE_PERM',
  'SQLITE_PROTOCOL',
  'SQLITE_NOTADB',
  'SQLITE_CORRUPT',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
];

/**
 * System errors of the file or its folder (making the folder, moving a damaged file aside);
 * EEXIST: a file where the folder should be.
 */
const ERRNO_UNWRITABLE = new Set([
  'ENOSPC',
  'EDQUOT',
  'EACCES',
  'EPERM',
  'EROFS',
  'EIO',
  'ENOENT',
  'ENOTDIR',
  'EEXIST',
]);

/**
 * The store cannot be written now (disk full, folder gone or read-only, file damaged, lock held
 * past `busy_timeout`): the write is worth keeping and trying again. A SaltError is judged by
 * its cause; SALT_ERR_JOB_STORE_CORRUPT (`on_corrupt: refuse`) counts.
 */
export function isUnwritable(err: unknown): boolean {
  if (err instanceof SaltError) {
    if (err.code === 'SALT_ERR_JOB_STORE_CORRUPT') return true;
    return err.cause !== undefined && err.cause !== err && isUnwritable(err.cause);
  }
  const code = codeOf(err);
  return SQLITE_UNWRITABLE.some((c) => code.startsWith(c)) || ERRNO_UNWRITABLE.has(code);
}
