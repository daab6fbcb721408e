/**
 * What Salt's `sqlite3` execution and state modules get from Python's `sqlite3` library, on
 * better-sqlite3: a connection in autocommit mode, one statement per call (Python refuses a
 * second one), rows with Python's value types (INTEGER as int, REAL as float even when whole,
 * BLOB as bytes, NULL as None) and errors named by Python's exception classes.
 */
import type { Database, Statement } from 'better-sqlite3';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { SaltFloat } from '../kernel/python/index.js';

type Driver = typeof import('better-sqlite3');
let driver: Promise<Driver> | undefined;

/** A Python value as the `sqlite3` library returns it. */
export type SqlValue = number | bigint | string | Uint8Array | SaltFloat | null;
export type SqlRow = SqlValue[];
export type SqlParams = readonly unknown[];

/** Python's `sqlite3` exception class for a failure of SQLite or of the statement. */
function pythonClass(err: Error & { code?: string }): string {
  if (err.code?.startsWith('SQLITE_CONSTRAINT')) return 'IntegrityError';
  if (err.code === 'SQLITE_MISMATCH' || err.code === 'SQLITE_TOOBIG') return 'DataError';
  if (err.code === 'SQLITE_NOTADB' || err.code === 'SQLITE_CORRUPT') return 'DatabaseError';
  if (err.code === 'SQLITE_RANGE' || err instanceof RangeError) return 'ProgrammingError';
  return 'OperationalError';
}

/** Python's `str(exc)` of each error {@link sqliteError} made. */
const pythonText = new WeakMap<Error, string>();

/** The text Python's `str(exc)` gives for `err` (SQLite's own message, Python's for the rest). */
export function sqliteMessage(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const known = pythonText.get(err);
  if (known !== undefined) return known;
  if (/more than one statement/.test(err.message)) return 'You can only execute one statement at a time.';
  if (/directory does not exist|unable to open/i.test(err.message)) return 'unable to open database file';
  return err.message;
}

/** An error a caller that does not catch it reports as Python's uncaught exception line. */
export function sqliteError(err: unknown): Error {
  const message = sqliteMessage(err);
  const cls =
    message === 'You can only execute one statement at a time.'
      ? 'ProgrammingError'
      : err instanceof Error
        ? pythonClass(err)
        : 'OperationalError';
  const wrapped = new SALT_ERR_EXEC_COMMAND(`${cls}: ${message}`);
  pythonText.set(wrapped, message);
  return wrapped;
}

/** Python's value for what SQLite stored: integers come as bigint (safeIntegers), reals as number. */
function pyValue(v: unknown): SqlValue {
  if (typeof v === 'bigint')
    return v >= Number.MIN_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : v;
  if (typeof v === 'number') return Number.isInteger(v) ? new SaltFloat(v) : v;
  if (v instanceof Uint8Array) return new Uint8Array(v);
  return v as string | null;
}

/**
 * A parameter as Python binds it: an int (and a bool) as INTEGER, a float (a SaltFloat, or a
 * number with a fraction) as REAL; better-sqlite3 binds every JS number as REAL.
 */
function bindable(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  if (v instanceof SaltFloat) return v.value;
  return v === undefined ? null : v;
}

/** An open database: `sqlite3.connect(path, isolation_level=None)`. */
export class SqliteDb {
  private constructor(private readonly db: Database) {}

  /** Opens (creating it if missing, as Python's `connect`) the database at `path`. */
  static async open(path: string): Promise<SqliteDb> {
    driver ??= import('better-sqlite3').then((m) => (m.default ?? m) as unknown as Driver);
    const Sqlite = await driver;
    try {
      return new SqliteDb(new Sqlite(path));
    } catch (err) {
      throw sqliteError(err);
    }
  }

  private statement(sql: string): Statement {
    try {
      return this.db.prepare(sql).safeIntegers(true);
    } catch (err) {
      // Python's cursor runs an empty statement as nothing
      if (err instanceof RangeError && /contains no statements/.test(err.message)) {
        return this.db.prepare('SELECT 1 WHERE 0').safeIntegers(true);
      }
      throw sqliteError(err);
    }
  }

  /** Runs one statement; its rows (none for a statement that returns no data) as Python tuples. */
  rows(sql: string, params: SqlParams = []): SqlRow[] {
    const stmt = this.statement(sql);
    try {
      if (!stmt.reader) {
        stmt.run(...params.map(bindable));
        return [];
      }
      return (stmt.raw(true).all(...params.map(bindable)) as unknown[][]).map((r) => r.map(pyValue));
    } catch (err) {
      throw sqliteError(err);
    }
  }

  /** Runs one statement; its rows as dicts by column name (the state module's `_dict_factory`). */
  dicts(sql: string, params: SqlParams = []): Record<string, SqlValue>[] {
    const stmt = this.statement(sql);
    if (!stmt.reader) {
      this.run(sql, params);
      return [];
    }
    const names = stmt.columns().map((c) => c.name);
    return this.rows(sql, params).map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? null])));
  }

  /** Runs one statement that changes data; how many rows it changed (Python's `rowcount`). */
  run(sql: string, params: SqlParams = []): number {
    const stmt = this.statement(sql);
    try {
      if (stmt.reader) {
        stmt.all(...params.map(bindable));
        return -1;
      }
      return stmt.run(...params.map(bindable)).changes;
    } catch (err) {
      throw sqliteError(err);
    }
  }

  close(): void {
    this.db.close();
  }
}

/** Opens `path`, runs `work` and closes the database whatever happens. */
export async function withDb<T>(path: string, work: (db: SqliteDb) => T | Promise<T>): Promise<T> {
  const db = await SqliteDb.open(path);
  try {
    return await work(db);
  } finally {
    db.close();
  }
}
