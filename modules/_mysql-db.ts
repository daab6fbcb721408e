/**
 * The server and database functions of Salt's `mysql` module: `version`, `status`, `query`,
 * `db_list`, `db_get`, `alter_db`, `db_tables`, `db_exists`, `db_create`, `db_remove`, each
 * over its own connection, with Salt's returns on failure (`''`, `{}`, `[]`, `False`).
 */
import type { ExecContext } from '../kernel/index.js';
import { type MysqlConnArgs, tryRun, withSession } from './_mysql-conn.js';
import { cachedVersion, cacheVersion } from './_mysql-context.js';
import { SALT_ERR_MYSQL_IDENTIFIER } from './_mysql-errors.js';
import { quoteIdentifier } from './_mysql-sql.js';

/** Salt's `mysql.version`: `SELECT VERSION()`, kept for the rest of the job; '' when unreachable. */
export async function mysqlVersion(ctx: ExecContext, c: MysqlConnArgs): Promise<string> {
  const known = cachedVersion(ctx);
  if (known !== undefined) return known;
  return withSession(ctx, c, '', (s) =>
    tryRun(ctx, s, 'SELECT VERSION()', {}, '', (r) => {
      const v = r.rows[0]?.[0];
      if (v === undefined) return '';
      cacheVersion(ctx, String(v));
      return String(v);
    }),
  );
}

/** Salt's `mysql.status`: `SHOW STATUS` as a dict. */
export function mysqlStatus(ctx: ExecContext, c: MysqlConnArgs): Promise<Record<string, unknown>> {
  return withSession(ctx, c, {}, (s) =>
    tryRun(ctx, s, 'SHOW STATUS', {}, {}, (r) =>
      Object.fromEntries(r.rows.map((row) => [String(row[0]), row[1]])),
    ),
  );
}

/** The `query time` entry of a `mysql.query` return. */
function queryTime(seconds: number): { human: string; raw: string } {
  const round = (x: number, d: number) => Number(x.toFixed(d));
  const human = seconds < 0.2 ? `${round(seconds * 1000, 1)}ms` : `${round(seconds, 2)}s`;
  return { human, raw: String(round(seconds, 5)) };
}

/** What `mysql.query` returns for a statement. */
export interface QueryReturn {
  'query time': { human: string; raw: string };
  'rows returned'?: number;
  columns?: string[];
  results?: unknown[][];
  'rows affected'?: number;
}

/**
 * Salt's `mysql.query`: runs `query` in `database`; values as strings; `{}` when the connection
 * fails, False for an OperationalError, other server errors raised as PyMySQL raises them.
 */
export function mysqlQuery(
  ctx: ExecContext,
  database: string,
  query: string,
  c: MysqlConnArgs,
): Promise<QueryReturn | Record<string, never> | false> {
  return withSession<QueryReturn | Record<string, never> | false>(
    ctx,
    c,
    {},
    async (s) => {
      const start = performance.now();
      ctx.log.debug(`Using db: ${database} to run query`);
      return tryRun<QueryReturn | false>(ctx, s, query, {}, false, (r) => {
        const ret: QueryReturn = { 'query time': queryTime((performance.now() - start) / 1000) };
        const head = query.toUpperCase().trim();
        if (['SELECT', 'SHOW', 'DESC'].some((k) => head.startsWith(k))) {
          ret['rows returned'] = r.count;
          ret.columns = r.columns ?? [];
          ret.results = r.rows;
        } else ret['rows affected'] = r.count;
        return ret;
      });
    },
    { db: database, cast: 'strings' },
  );
}

/** Salt's `mysql.db_list`: `SHOW DATABASES`. */
export function dbList(ctx: ExecContext, c: MysqlConnArgs): Promise<string[]> {
  return withSession(ctx, c, [] as string[], (s) =>
    tryRun(ctx, s, 'SHOW DATABASES', {}, [] as string[], (r) => r.rows.map((row) => String(row[0]))),
  );
}

/** Salt's `mysql.db_get`: the database's default character set and collation; {} when absent. */
export function dbGet(
  ctx: ExecContext,
  name: string,
  c: MysqlConnArgs,
): Promise<{ character_set?: string; collate?: string } | never[]> {
  type R = { character_set?: string; collate?: string } | never[];
  return withSession<R>(ctx, c, [], (s) =>
    tryRun<R>(
      ctx,
      s,
      'SELECT DEFAULT_CHARACTER_SET_NAME, DEFAULT_COLLATION_NAME FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME=%(dbname)s;',
      { dbname: name },
      [],
      (r) => {
        const row = r.rows[0];
        return row ? { character_set: String(row[0]), collate: String(row[1]) } : {};
      },
    ),
  );
}

/** Salt's `mysql.alter_db`: `ALTER DATABASE` to a character set and collation (the current ones by default). */
export async function alterDb(
  ctx: ExecContext,
  name: string,
  characterSet: string | null,
  collate: string | null,
  c: MysqlConnArgs,
): Promise<boolean | never[]> {
  return withSession<boolean | never[]>(ctx, c, [], async (s) => {
    const existing = (await dbGet(ctx, name, c)) as { character_set?: string; collate?: string };
    const cs = characterSet || existing.character_set || 'None';
    const co = collate || existing.collate || 'None';
    if (!/^\w+$/.test(cs)) throw new SALT_ERR_MYSQL_IDENTIFIER('the character set', cs);
    if (!/^\w+$/.test(co)) throw new SALT_ERR_MYSQL_IDENTIFIER('the collation', co);
    const qry = `ALTER DATABASE ${quoteIdentifier(name)} CHARACTER SET ${cs} COLLATE ${co};`;
    return tryRun(ctx, s, qry, {}, false, (r) => {
      if (r.count) ctx.log.info(`DB '${name}' altered`);
      return r.count > 0;
    });
  });
}

/** Salt's `mysql.db_exists`: `SHOW DATABASES LIKE` the name (so `_` and `%` match as LIKE does). */
export function dbExists(ctx: ExecContext, name: string, c: MysqlConnArgs): Promise<boolean> {
  return withSession(ctx, c, false, (s) =>
    tryRun(ctx, s, 'SHOW DATABASES LIKE %(dbname)s;', { dbname: name }, false, (r) => r.count === 1),
  );
}

/** Salt's `mysql.db_tables`: `SHOW TABLES IN` the database; False when it does not exist. */
export async function dbTables(ctx: ExecContext, name: string, c: MysqlConnArgs): Promise<string[] | false> {
  if (!(await dbExists(ctx, name, c))) {
    ctx.log.info(`Database '${name}' does not exist`);
    return false;
  }
  return withSession<string[] | false>(ctx, c, [], (s) =>
    tryRun(ctx, s, `SHOW TABLES IN ${quoteIdentifier(name)}`, {}, [] as string[], (r) =>
      r.rows.map((row) => String(row[0])),
    ),
  );
}

/** Salt's `mysql.db_create`: `CREATE DATABASE IF NOT EXISTS`; False when it already exists. */
export async function dbCreate(
  ctx: ExecContext,
  name: string,
  characterSet: unknown,
  collate: unknown,
  c: MysqlConnArgs,
): Promise<boolean> {
  if (await dbExists(ctx, name, c)) {
    ctx.log.info(`DB '${name}' already exists`);
    return false;
  }
  return withSession(ctx, c, false, (s) => {
    let qry = `CREATE DATABASE IF NOT EXISTS ${quoteIdentifier(name)}`;
    const args: Record<string, unknown> = {};
    if (characterSet !== null && characterSet !== undefined) {
      qry += ' CHARACTER SET %(character_set)s';
      args.character_set = characterSet;
    }
    if (collate !== null && collate !== undefined) {
      qry += ' COLLATE %(collate)s';
      args.collate = collate;
    }
    return tryRun(ctx, s, `${qry};`, args, false, (r) => {
      if (r.count) ctx.log.info(`DB '${name}' created`);
      return r.count > 0;
    });
  });
}

/** Salt's `mysql.db_remove`: `DROP DATABASE`; False when absent, or for `mysql`. */
export async function dbRemove(ctx: ExecContext, name: string, c: MysqlConnArgs): Promise<boolean> {
  if (!(await dbExists(ctx, name, c))) {
    ctx.log.info(`DB '${name}' does not exist`);
    return false;
  }
  if (name === 'mysql' || name === 'information_scheme') {
    ctx.log.info(`DB '${name}' may not be removed`);
    return false;
  }
  const dropped = await withSession(ctx, c, false, (s) =>
    tryRun(ctx, s, `DROP DATABASE ${quoteIdentifier(name)};`, {}, false, () => true),
  );
  if (!dropped) return false;
  return !(await dbExists(ctx, name, c));
}
