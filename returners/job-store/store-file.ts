/**
 * A process's connection to one job store file, opened (and its schema made) on first use.
 * A file SQLite finds damaged (not a database, malformed) is moved aside and a new, empty store
 * started in its place, with an error logged that names both files; with
 * `job_store.on_corrupt: refuse` it is left alone and SALT_ERR_JOB_STORE_CORRUPT is thrown.
 *
 * It also remembers which file it opened (device and inode): a file deleted, moved aside or
 * replaced while open keeps its handle working on the old file, invisible to every process that
 * opens the path afterwards. {@link StoreFile.replaced} tells, with one `stat` of the path.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { UnitLogger } from '../../kernel/index.js';
import { SALT_ERR_JOB_STORE, SALT_ERR_JOB_STORE_CORRUPT } from './errors.js';
import { isCorrupt } from './failures.js';
import { damage, moveAside } from './move-aside.js';
import { openDatabase, type StoreSettings, storeError } from './schema.js';

/** Opens tried on a damaged file (each after moving it aside) before giving up. */
const OPEN_TRIES = 3;

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Which file a path names now (undefined: none). */
interface FileId {
  dev: number;
  ino: number;
}

function fileId(path: string): FileId | undefined {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    return st && { dev: st.dev, ino: st.ino };
  } catch (err) {
    // a file where a folder of the path should be: no store file there either
    if ((err as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw err;
  }
}

const sameFile = (a: FileId | undefined, b: FileId | undefined): boolean =>
  a !== undefined && b !== undefined && a.dev === b.dev && a.ino === b.ino;

export class StoreFile {
  #db: Database.Database | undefined;
  /** The file the connection has open (the path named it just before and after opening). */
  #id: FileId | undefined;

  constructor(
    readonly settings: StoreSettings,
    private readonly log: UnitLogger,
  ) {}

  /** The open connection, opening the file first if needed. @throws SALT_ERR_JOB_STORE(_CORRUPT) */
  db(): Database.Database {
    if (this.#db?.open) return this.#db;
    for (let tries = 1; ; tries++) {
      const before = fileId(this.settings.path);
      const db = this.#open();
      const after = fileId(this.settings.path);
      // a new file (nothing before) is the one now there; otherwise it must not have changed
      if ((after && (!before || sameFile(before, after))) || tries >= OPEN_TRIES) {
        this.#db = db;
        this.#id = after;
        return db;
      }
      db.close();
    }
  }

  /**
   * Whether the path no longer names the file the connection has open: `deleted` (nothing
   * there), `replaced` (another file: moved aside and made anew by another process, or put
   * there). Then the connection is closed, without the checkpoint (the old file is no one's
   * now), and the next {@link db} opens what the path names. One `stat`; false when not open.
   */
  replaced(): 'deleted' | 'replaced' | undefined {
    if (!this.#db?.open) return undefined;
    const now = fileId(this.settings.path);
    if (sameFile(now, this.#id)) return undefined;
    this.#db.close();
    this.#db = undefined;
    return now ? 'replaced' : 'deleted';
  }

  #open(): Database.Database {
    const { path } = this.settings;
    for (let tries = 1; ; tries++) {
      // read-only first: SQLite deletes the WAL of a damaged file a read-write connection closes
      const found = damage(path);
      if (found !== undefined && tries < OPEN_TRIES) {
        this.#damaged(found, false, true);
        continue;
      }
      try {
        return openDatabase(this.settings);
      } catch (err) {
        if (!isCorrupt(err) || tries >= OPEN_TRIES) throw storeError(path, err);
        this.#damaged(reasonOf(err), false, true, err);
      }
    }
  }

  /**
   * An operation failed with SQLite's "malformed": damage SQLite does not see on opening (a file
   * cut short while its WAL still held the newest pages, a bad page inside). The connection is
   * dropped, the whole file checked, and a damaged file moved aside (`on_corrupt: move_aside`)
   * or reported (`refuse`); the next operation opens the store again. Never throws.
   */
  suspect(err: unknown): void {
    const db = this.#db;
    this.#db = undefined;
    if (db?.open) db.close();
    try {
      this.#damaged(reasonOf(err), true, false, err);
    } catch (refused) {
      this.log.error({ code: SALT_ERR_JOB_STORE_CORRUPT.code, path: this.settings.path }, reasonOf(refused));
    }
  }

  /**
   * Moves the damaged file aside and logs it, or throws SALT_ERR_JOB_STORE_CORRUPT when the
   * operator chose `refuse` (`known`: SQLite's own report, rather than a suspicion to check).
   */
  #damaged(why: string, thorough: boolean, known: boolean, cause?: unknown): void {
    const { path } = this.settings;
    if (this.settings.onCorrupt === 'refuse') {
      if (known || damage(path, thorough) !== undefined)
        throw new SALT_ERR_JOB_STORE_CORRUPT(path, why, { cause: cause ?? why });
      return;
    }
    let aside: string | undefined;
    try {
      aside = moveAside(path, thorough);
    } catch (moveErr) {
      throw new SALT_ERR_JOB_STORE(path, `corrupt (${why}) and not moved aside: ${reasonOf(moveErr)}`, {
        cause: moveErr,
      });
    }
    if (aside)
      this.log.error(
        { code: SALT_ERR_JOB_STORE_CORRUPT.code, path, moved_to: aside, err: why },
        `job store ${path} is corrupt (${why}): moved aside to ${aside}; a new, empty job store is used from now on`,
      );
  }

  /** Closes the connection, if open (checkpointing the WAL). */
  close(): void {
    const db = this.#db;
    this.#db = undefined;
    if (!db?.open) return;
    try {
      db.pragma('optimize');
      db.pragma('wal_checkpoint(TRUNCATE)');
    } catch {
      // another process may hold the database: closing still checkpoints what it can
    }
    db.close();
  }
}
