/**
 * Salt's `sqlite3` execution module (`salt/modules/sqlite3.py`): one SQL statement against a
 * database file (created when missing), its rows as lists. A failing statement is an error named
 * by Python's exception class (`OperationalError: no such table: t`), where Salt's minion ends in
 * that exception's traceback. `version` is the Python library's version Salt reports (2.6.0);
 * `sqlite_version` the SQLite library tsalt runs, which is better-sqlite3's own build.
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { type SqlRow, withDb } from './_sqlite3-db.js';

/** Python's `sqlite3.version`, the pysqlite version Salt 3006 on Python 3.11 returns. */
const PYSQLITE_VERSION = '2.6.0';

const dbArgs = (z: typeof import('zod').z) => z.object({ db: z.string().nullish() });
const sqlArgs = (z: typeof import('zod').z) =>
  z.object({ db: z.string().nullish(), sql: z.string().nullish() });

const LIST_SQL = (type: string) => `SELECT name FROM sqlite_master WHERE type='${type}' ORDER BY name;`;

/** `db` missing: Salt's `_connect` returns False and so does the function. */
async function query(
  db: string | null | undefined,
  sql: string | null | undefined,
): Promise<SqlRow[] | false> {
  if (!db) return false;
  return withDb(db, (conn) => conn.rows(sql ?? ''));
}

const indices = defineFunction({
  args: dbArgs,
  doc: `The indices of the database, by name, each as a one-item row (sqlite3.indexes is the same).

CLI Example:

    salt '*' sqlite3.indices /root/test.db`,
  run: (_ctx, a) => query(a.db, LIST_SQL('index')),
});

export default defineModule({
  name: 'sqlite3',
  doc: 'SQLite databases: run statements, read rows, list tables and indices.',
  functions: {
    version: defineFunction({
      args: (z) => z.object({}),
      doc: `The version of Python's sqlite3 library (pysqlite) Salt reports.

CLI Example:

    salt '*' sqlite3.version`,
      inline: true,
      run: () => PYSQLITE_VERSION,
    }),
    sqlite_version: defineFunction({
      args: (z) => z.object({}),
      doc: `The version of the SQLite library the minion uses.

CLI Example:

    salt '*' sqlite3.sqlite_version`,
      run: () => withDb(':memory:', (conn) => String((conn.rows('SELECT sqlite_version()')[0] ?? [''])[0])),
    }),
    modify: defineFunction({
      args: sqlArgs,
      doc: `Runs one SQL statement that changes the database (CREATE, INSERT, UPDATE, DELETE, ...) and
returns True; False without a database. The file is created when missing.

CLI Example:

    salt '*' sqlite3.modify /root/test.db 'CREATE TABLE test(id INT, testdata TEXT);'`,
      run: async (_ctx, a) => {
        if (!a.db) return false;
        await withDb(a.db, (conn) => conn.run(a.sql ?? ''));
        return true;
      },
    }),
    fetch: defineFunction({
      args: sqlArgs,
      doc: `Runs one SQL statement and returns every row it yields, each as a list (all of them at
once: limit large queries).

CLI Example:

    salt '*' sqlite3.fetch /root/test.db 'SELECT * FROM test;'`,
      run: (_ctx, a) => query(a.db, a.sql),
    }),
    tables: defineFunction({
      args: dbArgs,
      doc: `The tables of the database, by name, each as a one-item row.

CLI Example:

    salt '*' sqlite3.tables /root/test.db`,
      run: (_ctx, a) => query(a.db, LIST_SQL('table')),
    }),
    indices,
    indexes: indices,
  },
});
