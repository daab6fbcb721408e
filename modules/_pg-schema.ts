/**
 * Schemas and database ownership for Salt's `postgres` module: `schema_list` and friends (which
 * take `db_user`/`db_password`/`db_host`/`db_port`, `user` being the system user) and
 * `owner_to`, which hands every schema, table, view, function and sequence of a database to a
 * role in one transaction.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { type PgConn, type PsqlResult, psqlQuery, runPsql } from './_pg-run.js';

/** Salt's schema functions' connection arguments. */
export interface SchemaConn {
  user?: unknown;
  db_user?: unknown;
  db_password?: unknown;
  db_host?: unknown;
  db_port?: unknown;
}

export const schemaConn = (dbname: string, c: SchemaConn): PgConn => ({
  runas: c.user,
  user: c.db_user,
  password: c.db_password,
  host: c.db_host,
  port: c.db_port,
  maintenance_db: dbname,
});

export async function schemaList(
  ctx: ExecContext,
  dbname: string,
  c: SchemaConn,
): Promise<Record<string, { owner: string; acl: string }>> {
  const q =
    'SELECT pg_namespace.nspname as "name",pg_namespace.nspacl as "acl", pg_roles.rolname as "owner" ' +
    'FROM pg_namespace LEFT JOIN pg_roles ON pg_roles.oid = pg_namespace.nspowner ';
  const out: Record<string, { owner: string; acl: string }> = {};
  for (const row of await psqlQuery(ctx, q, schemaConn(dbname, c)))
    out[row.name ?? ''] = { owner: row.owner ?? '', acl: row.acl ?? '' };
  return out;
}

const OWNED: ReadonlyArray<[string, string]> = [
  [
    'alter schema {n} owner to {owner};',
    'select quote_ident(schema_name) as n from information_schema.schemata;',
  ],
  [
    'alter table {n} owner to {owner};',
    "select quote_ident(table_schema)||'.'||quote_ident(table_name) as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema');",
  ],
  [
    'alter function {n} owner to {owner};',
    "select p.oid::regprocedure::text as n from pg_catalog.pg_proc p join pg_catalog.pg_namespace ns on p.pronamespace=ns.oid where ns.nspname not in ('pg_catalog', 'information_schema')  and p.prokind <> 'a';",
  ],
  [
    'alter aggregate {n} owner to {owner};',
    "select p.oid::regprocedure::text as n from pg_catalog.pg_proc p join pg_catalog.pg_namespace ns on p.pronamespace=ns.oid where ns.nspname not in ('pg_catalog', 'information_schema') and p.prokind = 'a';",
  ],
  [
    'alter sequence {n} owner to {owner};',
    "select quote_ident(sequence_schema)||'.'||quote_ident(sequence_name) as n from information_schema.sequences;",
  ],
];

/** Salt's `owner_to`: psql's result of running the generated script in the database. */
export async function ownerTo(
  ctx: ExecContext,
  dbname: string,
  owner: string,
  conn: PgConn,
): Promise<PsqlResult> {
  const c = { ...conn, maintenance_db: dbname };
  const lines = ['begin;', `alter database "${dbname}" owner to "${owner}";`];
  for (const [fmt, q] of OWNED)
    for (const row of await psqlQuery(ctx, q, c))
      lines.push(fmt.replace('{n}', row.n ?? '').replace('{owner}', owner));
  lines.push('commit;');
  const dir = mkdtempSync(join(tmpdir(), 'tsalt-pg-owner-'));
  try {
    chmodSync(dir, 0o755);
    const file = join(dir, 'owner.sql');
    writeFileSync(file, `${lines.join('\n')}\n`, { mode: 0o644 });
    return await runPsql(ctx, ['-f', file], c);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
