/**
 * How Salt's `postgres` module reaches a server: `psql --no-align --no-readline --no-psqlrc
 * --no-password` with `--username`/`--host`/`--port`/`--dbname` from the call or the
 * `postgres.*` options, run as `runas` (the `postgres` system user when no host or a socket
 * directory is given), and `psql_query`'s `COPY (...) TO STDOUT WITH CSV HEADER` parsed into
 * records. The password goes to psql in its environment (PGPASSWORD), never in argv.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { runasSetup } from './_cmd-runas.js';
import { csvRecords } from './_pg-csv.js';
import { pgOption } from './_pg-options.js';
import { runProcess } from './_spawn.js';
import { which } from './_which.js';

/** The connection arguments every function of the module takes. */
export interface PgConn {
  user?: unknown;
  host?: unknown;
  port?: unknown;
  maintenance_db?: unknown;
  password?: unknown;
  runas?: unknown;
}

export interface PsqlResult {
  retcode: number;
  stdout: string;
  stderr: string;
}

const option = pgOption;

export const text = (v: unknown): string | null =>
  v === null || v === undefined || v === '' || v === false ? null : String(v);

/** Salt's `_find_pg_binary`: PATH first, then `postgres.bins_dir`. */
export function findPgBinary(util: string, binsDir: unknown): string | null {
  const onPath = which(util);
  if (onPath) return onPath;
  const dir = text(binsDir);
  if (dir && existsSync(join(dir, util))) return join(dir, util);
  return null;
}

/** Salt's module and states load when psql is found (PATH or the `postgres.bins_dir` option). */
export function psqlPresent(opts: Readonly<Record<string, unknown>>): true | { ok: false; reason: string } {
  const nested = opts.postgres;
  const binsDir =
    opts['postgres.bins_dir'] ??
    (nested && typeof nested === 'object' ? (nested as Record<string, unknown>).bins_dir : null);
  return findPgBinary('psql', binsDir) !== null || { ok: false, reason: 'psql was not found' };
}

/** Runs psql with `args` after the connection options; never throws for a failed psql. */
export async function runPsql(
  ctx: ExecContext,
  args: readonly string[],
  conn: PgConn,
  stdin: string | null = null,
): Promise<PsqlResult> {
  const user = text(conn.user) ?? text(await option(ctx, 'user'));
  const host = text(conn.host) ?? text(await option(ctx, 'host'));
  const port = text(conn.port) ?? text(await option(ctx, 'port'));
  const db = text(conn.maintenance_db) ?? text(await option(ctx, 'maintenance_db')) ?? 'postgres';
  const psql = findPgBinary('psql', await option(ctx, 'bins_dir'));
  if (!psql) throw new SALT_ERR_EXEC_COMMAND('psql was not found');
  const argv = [psql, '--no-align', '--no-readline', '--no-psqlrc', '--no-password'];
  if (user) argv.push('--username', user);
  if (host) argv.push('--host', host);
  if (port) argv.push('--port', port);
  argv.push('--dbname', db, ...args);
  let runas = text(conn.runas);
  if (runas === null && (!host || host.startsWith('/'))) runas = 'postgres';
  const password = text(conn.password) ?? text(await option(ctx, 'pass'));
  const as = await runasSetup(runas, null);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', ...as?.env };
  if (password) env.PGPASSWORD = password;
  const timeout = await option(ctx, 'timeout');
  const r = await runProcess({
    argv: [...(as?.prefix ?? []), ...argv],
    cwd: as?.home && existsSync(as.home) ? as.home : '/',
    env,
    stdin: stdin === null ? null : Buffer.from(stdin, 'utf8'),
    ...(timeout > 0 ? { timeoutMs: timeout * 1000 } : {}),
    signal: ctx.signal,
  });
  const res = {
    retcode: r.returncode ?? 1,
    stdout: r.stdout.toString('utf8').replace(/\n$/, ''),
    stderr: r.stderr.toString('utf8').replace(/\n$/, ''),
  };
  // psql may quote the failing statement: SQL sent on stdin can hold a password verifier
  if (res.retcode !== 0)
    ctx.log.error(stdin === null ? { stderr: res.stderr } : {}, 'Error connecting to Postgresql server');
  return res;
}

/**
 * Runs one SQL command (`-c`); true when psql exited 0. A `secret` command (one with a
 * password verifier) goes on psql's stdin, in one transaction that stops at the first error
 * as `-c` does, so that it never shows in the process list.
 */
export async function pgExec(ctx: ExecContext, sql: string, conn: PgConn, secret = false): Promise<boolean> {
  const r = secret
    ? await runPsql(ctx, ['-v', 'ON_ERROR_STOP=1', '--single-transaction', '-f', '-'], conn, sql)
    : await runPsql(ctx, ['-c', sql], conn);
  return r.retcode === 0;
}

/** Salt's `psql_query`: a SELECT's rows as records of strings; [] when psql fails. */
export async function psqlQuery(
  ctx: ExecContext,
  query: string,
  conn: PgConn,
  write = false,
): Promise<Record<string, string>[]> {
  let sql = `COPY (${query.trim().replace(/;+$/, '')}) TO STDOUT WITH CSV HEADER`;
  if (write) sql = `START TRANSACTION READ WRITE; ${sql}; COMMIT TRANSACTION;`;
  const r = await runPsql(ctx, ['-v', 'datestyle=ISO,MDY', '-c', sql], conn);
  if (r.retcode > 0) return [];
  const rows = csvRecords(r.stdout);
  return write ? rows.slice(0, -1) : rows;
}

/** Salt's `_quote_ddl_value`: the value in quotes; a quote inside it is refused. */
export function quoteDdl(value: string | null | undefined, quote = "'"): string | null {
  if (value === null || value === undefined) return null;
  if (value.includes(quote))
    throw new SALT_ERR_INVOCATION(`Unsupported character ${quote} in value: ${value}`);
  return `${quote}${value}${quote}`;
}

/** The server's version (`server_version`), first line of psql's answer ('' when it does not answer). */
export async function pgVersion(ctx: ExecContext, conn: PgConn): Promise<string> {
  const q = "SELECT setting FROM pg_catalog.pg_settings WHERE name = 'server_version'";
  const r = await runPsql(ctx, ['-c', q, '-t'], conn);
  return r.stdout.split('\n')[0] ?? '';
}
