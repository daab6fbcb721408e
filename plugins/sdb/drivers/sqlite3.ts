/**
 * The `sqlite3` sdb driver (Salt's `salt/sdb/sqlite3.py`) on better-sqlite3, a dependency tsalt
 * already has for its job store (Node 20 has no `node:sqlite`). Values are stored as Salt stores
 * them, msgpack in a blob (`key text, value blob`, table `sdb` by default, made on first use), so
 * one database serves Salt and tsalt alike. `create_statements`, `get_query` and `set_query`
 * replace the table and its statements as in Salt. It has no `delete`, as in Salt.
 */
import type Database from 'better-sqlite3';
import { packIpc, unpackIpc } from '../../../kernel/util.js';
import { defineSdb, type SdbProfile } from '../define.js';
import { SALT_ERR_SDB_VALUE } from '../errors.js';

/** An SQL identifier quoted as Salt's `_quote` does (a NUL is refused). */
function quoteIdent(name: string): string {
  if (name.includes('\0'))
    throw new SALT_ERR_SDB_VALUE(`sqlite3 sdb: a NUL character in table name ${JSON.stringify(name)}`);
  return `"${name.replace(/"/g, '""')}"`;
}

/** Opens the profile's database, making its table (or running `create_statements`) when missing. */
async function connect(profile: SdbProfile): Promise<{ db: Database.Database; table: string }> {
  const { default: Sqlite } = await import('better-sqlite3');
  if (typeof profile.database !== 'string' || profile.database === '')
    throw new SALT_ERR_SDB_VALUE("sqlite3 sdb: the profile has no 'database'");
  const db = new Sqlite(profile.database);
  const tableName = typeof profile.table === 'string' ? profile.table : 'sdb';
  const table = quoteIdent(tableName);
  const statements = Array.isArray(profile.create_statements) ? profile.create_statements.map(String) : [];
  try {
    if (statements.length > 0) for (const sql of statements) db.exec(sql);
    else if (profile.create_table !== false) {
      db.exec(`CREATE TABLE ${table} (key text, value blob)`);
      db.exec(`CREATE UNIQUE INDEX ${quoteIdent(`${tableName}_idx`)} ON ${table} (key)`);
    }
  } catch {
    // the table exists already (Salt ignores sqlite3.OperationalError the same way)
  }
  return { db, table };
}

export default defineSdb({
  name: 'sqlite3',
  doc: 'Values in an SQLite database, msgpack-encoded as Salt stores them.',
  async get(key, profile) {
    const { db, table } = await connect(profile);
    try {
      const query =
        typeof profile.get_query === 'string'
          ? profile.get_query
          : `SELECT value FROM ${table} WHERE key=:key`;
      const row = db.prepare(query).raw().get({ key }) as unknown[] | undefined;
      if (!row) return null;
      const value = row[0];
      return value instanceof Uint8Array ? unpackIpc(value) : value;
    } finally {
      db.close();
    }
  },
  async set(key, value, profile) {
    const { db, table } = await connect(profile);
    try {
      const query =
        typeof profile.set_query === 'string'
          ? profile.set_query
          : `INSERT OR REPLACE INTO ${table} VALUES (:key, :value)`;
      db.prepare(query).run({ key, value: packIpc(value) });
      return true;
    } finally {
      db.close();
    }
  },
});
