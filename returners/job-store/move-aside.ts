/**
 * Moving a damaged job store aside: `jobs.sqlite` (and its `-wal`, `-shm`) become
 * `jobs.sqlite.corrupt-<UTC time>` (and `...-wal`, `...-shm`, so that `sqlite3` opens the copy
 * with its WAL), and the next open makes a new, empty store at the same path.
 *
 * Every master process and thread opens the same file, at once at start, and each may find it
 * damaged. One of them at a time moves it, under a lock file beside it (`<path>-move-aside.lock`),
 * and only after checking again, under the lock, that the file at the path is still damaged: the
 * others then find the new store and move nothing. The companions go first: a new store made at
 * the path while the old WAL were still there would replay that WAL into the new file.
 */
import { closeSync, openSync, renameSync, statSync, unlinkSync } from 'node:fs';
import Database from 'better-sqlite3';
import { isCorrupt } from './failures.js';

/** A lock file older than this belongs to a process that died while holding it. */
const LOCK_STALE_MS = 10_000;
/** Longest wait for another process's lock before giving up. */
const LOCK_WAIT_MS = 15_000;
/** Pause between tries while another process holds the lock. */
const LOCK_POLL_MS = 5;

/** `2026-11-27T00:13:05.123Z` as `20261127T001305.123Z`: sortable, no characters a shell minds. */
function stamp(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '');
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Runs `fn` holding `lock` (an exclusive-create file); throws when it cannot be had in time. */
function withLock<T>(lock: string, fn: () => T): T {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > LOCK_STALE_MS) unlinkSync(lock);
      else if (Date.now() > deadline) throw new Error(`${lock} is held by another process`);
      else sleep(LOCK_POLL_MS);
    }
  }
  try {
    return fn();
  } finally {
    unlinkSync(lock);
  }
}

/**
 * Why SQLite finds the file at `path` damaged, or undefined when it is sound, absent or busy.
 * The connection is read-only: closing it leaves the WAL as it was (a read-write one checkpoints
 * and deletes it). `thorough` reads every page (`quick_check`): after an operation failed with
 * "malformed"; otherwise only what SQLite reads on opening (the header, the size, the schema).
 */
export function damage(path: string, thorough = false): string | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 0 });
    db.pragma('user_version', { simple: true });
    db.prepare('SELECT count(*) FROM sqlite_schema').get();
    if (!thorough) return undefined;
    const check = String(db.pragma('quick_check(1)', { simple: true }));
    return check === 'ok' ? undefined : check;
  } catch (err) {
    return isCorrupt(err) ? (err as Error).message : undefined;
  } finally {
    db?.close();
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

/**
 * Moves the damaged store at `path` aside (checked again under the lock, `thorough` as for
 * {@link damage}); returns where it went, or undefined when the file there is not damaged (any
 * more: another process moved it first).
 */
export function moveAside(path: string, thorough = false, at: Date = new Date()): string | undefined {
  return withLock(`${path}-move-aside.lock`, () => {
    if (damage(path, thorough) === undefined) return undefined;
    let aside = `${path}.corrupt-${stamp(at)}`;
    for (let n = 1; statSync(aside, { throwIfNoEntry: false }); n++)
      aside = `${path}.corrupt-${stamp(at)}-${n}`;
    renameIfThere(`${path}-wal`, `${aside}-wal`);
    renameIfThere(`${path}-shm`, `${aside}-shm`);
    renameSync(path, aside);
    return aside;
  });
}
