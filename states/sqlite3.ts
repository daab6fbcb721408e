/**
 * Salt's `sqlite3` state module (`salt/states/sqlite3.py`): `sqlite3.table_present` (a schema
 * as SQL text or as a list of column definitions, `force` to replace a table whose schema
 * differs), `sqlite3.table_absent`, `sqlite3.row_present` (insert, or with `update` rewrite, the
 * one row `where_sql` selects) and `sqlite3.row_absent`, with Salt's comments, test-mode answers
 * and failures (the exception's text as the comment).
 */

import { type SqliteDb, sqliteMessage, withDb } from '../modules/_sqlite3-db.js';
import { pyEquals } from '../modules/_traverse.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

type Changes = Record<string, unknown>;

/** Runs `work` on the database; any failure becomes Salt's `result: False` with its text. */
async function attempt(name: string, db: string, work: (conn: SqliteDb, ret: StateReturn) => void) {
  const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
  try {
    await withDb(db, (conn) => work(conn, ret));
  } catch (err) {
    ret.result = false;
    ret.comment = sqliteMessage(err);
  }
  return ret;
}

const tableSql = (name: string, schema: string | readonly string[]) =>
  typeof schema === 'string' ? schema : `CREATE TABLE \`${name}\` (${schema.join(',')})`;

const rowArgs = (z: typeof import('zod').z) => ({
  name: z.string(),
  db: z.string(),
  table: z.string(),
  where_sql: z.string(),
  where_args: z.array(z.unknown()).nullish(),
});

function selectRows(
  conn: SqliteDb,
  table: string,
  where: string,
  args: readonly unknown[] | null | undefined,
) {
  return conn.dicts(`SELECT * FROM \`${table}\` WHERE ${where}`, args ?? []);
}

export default defineStateModule({
  name: 'sqlite3',
  doc: 'SQLite databases: tables and rows (sqlite3.table_present, table_absent, row_present, row_absent).',
  functions: {
    row_absent: defineState({
      args: (z) => z.object(rowArgs(z)),
      doc: 'Ensure no row of `table` matches `where_sql`; fails when more than one does.',
      run: (ctx, a) =>
        attempt(a.name, a.db, (conn, ret) => {
          const rows = selectRows(conn, a.table, a.where_sql, a.where_args);
          const changes = ret.changes as Changes;
          if (rows.length > 1) {
            ret.result = false;
            ret.comment = 'More than one row matched the specified query';
          } else if (rows.length === 1) {
            if (ctx.test) {
              ret.result = true;
              ret.comment = `Row will be removed in ${a.table}`;
              changes.old = rows[0];
            } else if (
              conn.run(`DELETE FROM \`${a.table}\` WHERE ${a.where_sql}`, a.where_args ?? []) === 1
            ) {
              ret.result = true;
              ret.comment = 'Row removed';
              changes.old = rows[0];
            } else {
              ret.result = false;
              ret.comment = 'Unable to remove row';
            }
          } else {
            ret.result = true;
            ret.comment = 'Row is absent';
          }
        }),
    }),
    row_present: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          db: z.string(),
          table: z.string(),
          data: z.record(z.string(), z.unknown()),
          where_sql: z.string(),
          where_args: z.array(z.unknown()).nullish(),
          update: z.boolean().default(false),
        }),
      doc: 'Ensure the row `where_sql` selects holds `data`: inserted when missing, rewritten when `update` is set.',
      run: (ctx, a) =>
        attempt(a.name, a.db, (conn, ret) => {
          const rows = selectRows(conn, a.table, a.where_sql, a.where_args);
          const changes = ret.changes as Changes;
          const entries = Object.entries(a.data);
          if (rows.length > 1) {
            ret.result = false;
            ret.comment = 'More than one row matched the specified query';
          } else if (rows.length === 1) {
            const row = rows[0] as Record<string, unknown>;
            // as Salt's loop: one UPDATE per differing key, each judged by its own row count
            for (const [key, value] of entries) {
              if (!(key in row) || pyEquals(row[key], value)) continue;
              if (!a.update) {
                ret.result = false;
                ret.comment = 'Existing data doesnot match desired state';
                break;
              }
              if (ctx.test) {
                ret.result = true;
                ret.comment = `Row will be update in ${a.table}`;
                continue;
              }
              const set = entries.map(([k]) => `\`${k}\`=?`).join(',');
              const params = [...entries.map(([, v]) => v), ...(a.where_args ?? [])];
              if (conn.run(`UPDATE \`${a.table}\` SET ${set} WHERE ${a.where_sql}`, params) === 1) {
                ret.result = true;
                ret.comment = 'Row updated';
                changes.old = row;
                changes.new = a.data;
              } else {
                ret.result = false;
                ret.comment = 'Row update failed';
              }
            }
            if (ret.result === null) {
              ret.result = true;
              ret.comment = 'Row exists';
            }
          } else if (ctx.test) {
            ret.result = true;
            changes.new = a.data;
            ret.comment = `Row will be inserted into ${a.table}`;
          } else {
            const columns = entries.map(([k]) => `\`${k}\``).join(',');
            const marks = entries.map(() => '?').join(',');
            const sql = `INSERT INTO \`${a.table}\` (${columns}) VALUES (${marks})`;
            if (
              conn.run(
                sql,
                entries.map(([, v]) => v),
              ) === 1
            ) {
              ret.result = true;
              changes.new = a.data;
              ret.comment = 'Inserted row';
            } else {
              ret.result = false;
              ret.comment = 'Unable to insert data';
            }
          }
        }),
    }),
    table_absent: defineState({
      args: (z) => z.object({ name: z.string(), db: z.string() }),
      doc: 'Ensure the table `name` does not exist in `db`.',
      run: (ctx, a) =>
        attempt(a.name, a.db, (conn, ret) => {
          const tables = conn.rows("SELECT sql FROM sqlite_master WHERE type='table' AND name=?", [a.name]);
          if (tables.length === 1) {
            ret.result = true;
            if (ctx.test) ret.comment = `'${a.name}' will be dropped`;
            else {
              conn.run(`DROP TABLE ${a.name}`);
              (ret.changes as Changes).old = tables[0]?.[0];
              ret.comment = `'${a.name}' was dropped`;
            }
          } else if (tables.length === 0) {
            ret.result = true;
            ret.comment = `'${a.name}' is already absent`;
          } else {
            ret.result = false;
            ret.comment = `Multiple tables with the same name='${a.name}'`;
          }
        }),
    }),
    table_present: defineState({
      args: (z) =>
        z.object({
          name: z.string(),
          db: z.string(),
          schema: z.union([z.string(), z.array(z.string())]),
          force: z.boolean().default(false),
        }),
      doc: 'Ensure the table `name` exists in `db` with `schema` (SQL text, or a list of column definitions).',
      run: (ctx, a) =>
        attempt(a.name, a.db, (conn, ret) => {
          const tables = conn.rows("SELECT sql FROM sqlite_master WHERE type='table' AND name=?", [a.name]);
          const changes = ret.changes as Changes;
          if (tables.length === 1) {
            const sql = typeof a.schema === 'string' ? a.schema.trim() : tableSql(a.name, a.schema);
            const actual = tables[0]?.[0];
            if (sql === actual) {
              ret.result = true;
              ret.comment = `'${a.name}' exists with matching schema`;
            } else if (!a.force) {
              ret.result = false;
              ret.comment = `Expected schema=${sql}\nactual schema=${String(actual)}`;
            } else {
              if (!ctx.test) {
                conn.run(`DROP TABLE \`${a.name}\``);
                conn.run(sql);
              }
              ret.result = true;
              changes.old = actual;
              changes.new = sql;
              ret.comment = ctx.test ? `'${a.name}' will be replaced` : `Replaced '${a.name}'`;
            }
          } else if (tables.length === 0) {
            const sql = tableSql(a.name, a.schema);
            if (!ctx.test) conn.run(sql);
            ret.result = true;
            changes.new = sql;
            ret.comment = ctx.test ? `'${a.name}' will be created` : `Created table '${a.name}'`;
          } else {
            ret.result = false;
            ret.comment = `Multiple tables with the same name=${a.name}`;
          }
        }),
    }),
  },
});
