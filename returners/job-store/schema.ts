/**
 * The job store's SQLite file: opening it (WAL, incremental auto-vacuum, busy timeout) and its
 * schema. store-file.ts keeps one connection per file per process. Every failure becomes
 * SALT_ERR_JOB_STORE.
 *
 * Layout: `jobs` has one row per job (the jid, its function(s), target(s) and targeted minions
 * as text for indexed and GLOB search, the load as msgpack); `returns` one row per minion and
 * job (msgpack of `{return, retcode, success, out}`, or an end state); `fun_last` the newest
 * jid per function and minion (Salt's `get_fun`, `get_minions`); `events` the bus events.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SaltError } from '../../kernel/index.js';
import { SALT_ERR_JOB_STORE } from './errors.js';

/** Bumped when the schema changes; stored in `PRAGMA user_version`. */
export const SCHEMA_VERSION = 1;

/** Separates the elements of list-valued text columns (a list target, the minions). */
export const SEP = '\u001f';

const DDL = `
CREATE TABLE IF NOT EXISTS jobs (
  id INTEGER PRIMARY KEY,
  jid TEXT NOT NULL UNIQUE,
  fun TEXT NOT NULL DEFAULT '',
  tgt TEXT NOT NULL DEFAULT '',
  minions TEXT NOT NULL DEFAULT '',
  load BLOB,
  nocache INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS jobs_fun ON jobs (fun, jid);
CREATE TABLE IF NOT EXISTS returns (
  job INTEGER NOT NULL,
  minion TEXT NOT NULL,
  state TEXT,
  data BLOB NOT NULL,
  PRIMARY KEY (job, minion)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fun_last (
  fun TEXT NOT NULL,
  minion TEXT NOT NULL,
  jid TEXT NOT NULL,
  PRIMARY KEY (fun, minion)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
  id INTEGER PRIMARY KEY,
  stamp INTEGER NOT NULL,
  tag TEXT NOT NULL,
  data BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS events_stamp ON events (stamp);
`;

/** How the file is opened (the returner's options). */
export interface StoreSettings {
  path: string;
  /** `normal` (default): a crashed process loses nothing; `full`: a power loss neither. */
  synchronous: 'normal' | 'full';
  /** How long a writer waits for another process's write lock, in milliseconds. */
  busyTimeoutMs: number;
  /** A file SQLite finds damaged: moved aside for a new store (default), or refused. */
  onCorrupt: 'move_aside' | 'refuse';
  /** Most writes kept in memory while the file cannot be written (0: fail them instead). */
  bufferSize: number;
  /** Milliseconds between tries of the writes kept in memory. */
  retryMs: number;
}

/** Wraps any failure in SALT_ERR_JOB_STORE naming the file (catalog errors pass through). */
export function storeError(path: string, err: unknown): SaltError {
  if (err instanceof SaltError) return err;
  const why = err instanceof Error ? err.message : String(err);
  return new SALT_ERR_JOB_STORE(path, why, { cause: err });
}

/**
 * Opens (or makes) the file and its schema. The first read of the file (`user_version`) is
 * where SQLite reports a damaged one (SQLITE_NOTADB, SQLITE_CORRUPT): the raw error is thrown.
 */
export function openDatabase(settings: StoreSettings): Database.Database {
  mkdirSync(dirname(settings.path), { recursive: true });
  const db = new Database(settings.path, { timeout: settings.busyTimeoutMs });
  try {
    // auto_vacuum only takes effect before the first table exists (a new file).
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma(`synchronous = ${settings.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(settings.busyTimeoutMs))}`);
    db.pragma('foreign_keys = OFF');
    // After a checkpoint the WAL file is cut back to this size (it stays bounded on disk).
    db.pragma('journal_size_limit = 67108864');
    const version = Number(db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw new Error(`schema version ${version} is newer than this tsalt understands (${SCHEMA_VERSION})`);
    }
    if (version < SCHEMA_VERSION) {
      db.transaction(() => {
        db.exec(DDL);
        db.pragma(`user_version = ${SCHEMA_VERSION}`);
      }).immediate();
    }
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}
