/**
 * The account functions of Salt's `mysql` module: `user_list`, `user_exists`, `user_info`,
 * `user_create`, `user_chpass`, `user_remove` and `plugin_status`, with MariaDB's and MySQL's
 * statements as Salt picks them by the server's version. A password reaches the server as a
 * quoted literal over the connection, never a log: statements are logged without arguments.
 */
import { createHash } from 'node:crypto';
import type { ExecContext } from '../kernel/index.js';
import { type MysqlConnArgs, mysqlConnect, tryRun, withSession } from './_mysql-conn.js';
import { mysqlError, setMysqlError } from './_mysql-context.js';
import { mysqlVersion } from './_mysql-db.js';
import { SALT_ERR_MYSQL_IDENTIFIER } from './_mysql-errors.js';
import { isTrue, versionCmp } from './_mysql-sql.js';

/** Options of the account functions, as Salt names them. */
export interface UserOpts {
  password?: unknown;
  password_hash?: unknown;
  passwordless?: unknown;
  allow_passwordless?: unknown;
  unix_socket?: unknown;
  password_column?: unknown;
  auth_plugin?: unknown;
}

type Query = { qry: string; args: Record<string, unknown> } | false;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

/** MySQL's `PASSWORD()` hash: `*` and the upper-case hex of SHA1(SHA1(password)). */
export function mysqlPasswordHash(password: string): string {
  const once = createHash('sha1').update(password, 'utf8').digest();
  return `*${createHash('sha1').update(once).digest('hex').toUpperCase()}`;
}

/** Salt's `plugin_status`: the plugin's PLUGIN_STATUS, '' when unknown or unreachable. */
export async function pluginStatus(
  ctx: ExecContext,
  name: string,
  c: MysqlConnArgs,
): Promise<string | false> {
  if (!name) {
    ctx.log.error('Plugin name is required.');
    return false;
  }
  return withSession(ctx, c, '', (s) =>
    tryRun(
      ctx,
      s,
      'SELECT PLUGIN_STATUS FROM INFORMATION_SCHEMA.PLUGINS WHERE PLUGIN_NAME = %(name)s',
      { name },
      '',
      (r) => (r.rows[0] ? String(r.rows[0][0]) : ''),
    ),
  );
}

/** Salt's `__password_column`: `Password` where mysql.user has it, else `authentication_string`. */
async function passwordColumn(ctx: ExecContext, given: unknown, c: MysqlConnArgs): Promise<string> {
  const col = str(given);
  if (col) {
    if (!/^\w+$/.test(col)) throw new SALT_ERR_MYSQL_IDENTIFIER('the password column', col);
    return col;
  }
  const cached = ctx.cache.get('mysql.password_column');
  if (typeof cached === 'string') return cached;
  const found = await withSession<string | null>(ctx, c, null, (s) =>
    tryRun(
      ctx,
      s,
      'SELECT column_name from information_schema.COLUMNS WHERE table_schema=%(schema)s and table_name=%(table)s and column_name=%(column)s',
      { schema: 'mysql', table: 'user', column: 'Password' },
      null,
      (r) => (r.count > 0 ? 'Password' : 'authentication_string'),
    ),
  );
  if (found === null) return 'Password';
  ctx.cache.set('mysql.password_column', found);
  return found;
}

/** Salt's `__get_auth_plugin`: the account's plugin, `mysql_native_password` when none. */
async function authPlugin(ctx: ExecContext, user: string, host: string, c: MysqlConnArgs): Promise<string> {
  return withSession(ctx, c, 'mysql_native_password', (s) =>
    tryRun(
      ctx,
      s,
      'SELECT plugin FROM mysql.user WHERE User=%(user)s and Host=%(host)s',
      { user, host },
      'mysql_native_password',
      (r) => (r.rows[0] ? String(r.rows[0][0] ?? 'mysql_native_password') : 'mysql_native_password'),
    ),
  );
}

/**
 * Salt's retry for a password that a state has just changed: when the server cannot be reached
 * with the configured login but `password` is given, the version is asked again with it.
 */
async function versionOrRetry(
  ctx: ExecContext,
  c: MysqlConnArgs,
  password: string | null,
): Promise<{ version: string; c: MysqlConnArgs } | null> {
  let version = await mysqlVersion(ctx, c);
  if (!version && password) {
    setMysqlError(ctx, null);
    const retry = { ...c, connection_pass: password };
    version = await mysqlVersion(ctx, retry);
    if (!version) {
      ctx.log.error(
        `MySQL Error: Unable to fetch current server version. Last error was: "${mysqlError(ctx) ?? 'None'}"`,
      );
      return null;
    }
    return { version, c: retry };
  }
  return { version, c };
}

/** Salt's `mysql.user_list`: every User and Host of mysql.user. */
export function userList(ctx: ExecContext, c: MysqlConnArgs): Promise<Array<Record<string, unknown>>> {
  return withSession(ctx, c, [] as Array<Record<string, unknown>>, (s) =>
    tryRun(ctx, s, 'SELECT User,Host FROM mysql.user', {}, [] as Array<Record<string, unknown>>, (r) =>
      r.rows.map((row) => ({ User: row[0], Host: row[1] })),
    ),
  );
}

/** Salt's `mysql.user_exists`: the account, optionally with this password (or passwordless). */
export async function userExists(
  ctx: ExecContext,
  user: string,
  host: string,
  o: UserOpts,
  c: MysqlConnArgs,
): Promise<boolean> {
  const password = str(o.password) || null;
  const v = await versionOrRetry(ctx, c, password);
  if (!v) return false;
  let conn = v.c;
  let s = await mysqlConnect(ctx, conn);
  if (
    !s &&
    password &&
    (mysqlError(ctx) ?? '').startsWith(`MySQL Error 1045: Access denied for user '${user}'@`)
  ) {
    setMysqlError(ctx, null);
    conn = { ...conn, connection_pass: password };
    s = await mysqlConnect(ctx, conn);
  }
  if (!s) return false;
  try {
    const column = await passwordColumn(ctx, o.password_column, conn);
    const plugin = await authPlugin(ctx, user, host, conn);
    let qry = 'SELECT User,Host FROM mysql.user WHERE User = %(user)s AND Host = %(host)s';
    const args: Record<string, unknown> = { user, host };
    const mariadb = v.version.includes('MariaDB');
    const hash = str(o.password_hash) || null;
    if (isTrue(o.passwordless)) {
      if (isTrue(o.unix_socket)) {
        qry += ' AND plugin=%(unix_socket)s';
        args.unix_socket = mariadb ? 'unix_socket' : 'auth_socket';
      } else qry += ` AND ${column} = ''`;
    } else if (password) {
      if (!mariadb && versionCmp(v.version, '8.0.11') >= 0) {
        if (plugin === 'mysql_native_password') {
          qry += ` AND ${column} = %(password)s`;
          args.password = mysqlPasswordHash(password);
        } else {
          ctx.log.error('Unable to verify password.');
          setMysqlError(ctx, 'Unable to verify password.');
        }
      } else {
        qry += ` AND ${column} = PASSWORD(%(password)s)`;
        args.password = password;
      }
    } else if (hash) {
      qry += ` AND ${column} = %(password)s`;
      args.password = hash;
    }
    return await tryRun(ctx, s, qry, args, false, (r) => r.count === 1);
  } finally {
    await s.close();
  }
}

/** Salt's `mysql.user_info`: the account's mysql.user row as a dict; False when unreachable. */
export function userInfo(
  ctx: ExecContext,
  user: string,
  host: string,
  c: MysqlConnArgs,
): Promise<Record<string, unknown> | null | false> {
  return withSession<Record<string, unknown> | null | false>(ctx, c, false, (s) =>
    tryRun<Record<string, unknown> | null | false>(
      ctx,
      s,
      'SELECT * FROM mysql.user WHERE User = %(user)s AND Host = %(host)s',
      { user, host },
      false,
      (r) => {
        const row = r.rows[0];
        return row ? Object.fromEntries((r.columns ?? []).map((col, i) => [col, row[i]])) : null;
      },
    ),
  );
}

/** Whether the socket auth plugin (MariaDB's unix_socket, MySQL's auth_socket) is on; the error recorded when not. */
async function socketPluginOn(ctx: ExecContext, mariadb: boolean, c: MysqlConnArgs): Promise<boolean> {
  const plugin = mariadb ? 'unix_socket' : 'auth_socket';
  if (await pluginStatus(ctx, plugin, c)) return true;
  const err = `The ${plugin} plugin is not enabled.`;
  ctx.log.error(err);
  setMysqlError(ctx, err);
  return false;
}

async function createQuery(
  ctx: ExecContext,
  version: string,
  user: string,
  host: string,
  o: UserOpts,
  c: MysqlConnArgs,
): Promise<Query> {
  const mariadb = version.includes('MariaDB');
  const mysql8 = !mariadb && versionCmp(version, '8.0.11') >= 0;
  let qry = 'CREATE USER %(user)s@%(host)s';
  const args: Record<string, unknown> = { user, host };
  if (isTrue(o.unix_socket)) {
    if (!(await socketPluginOn(ctx, mariadb, c))) return false;
    if (host !== 'localhost') {
      ctx.log.error('Auth via unix_socket can be set only for host=localhost');
      return false;
    }
    qry += mariadb ? ' IDENTIFIED VIA unix_socket' : ' IDENTIFIED WITH auth_socket';
  } else if (!isTrue(o.allow_passwordless)) {
    const password = str(o.password);
    const hash = str(o.password_hash);
    const plugin = str(o.auth_plugin) ?? 'mysql_native_password';
    if (password !== null) {
      qry += mysql8 ? ' IDENTIFIED WITH %(auth_plugin)s BY %(password)s' : ' IDENTIFIED BY %(password)s';
      if (mysql8) args.auth_plugin = plugin;
      args.password = password;
    } else if (hash !== null) {
      qry += mysql8
        ? ' IDENTIFIED WITH %(auth_plugin)s AS %(password)s'
        : ' IDENTIFIED BY PASSWORD %(password)s';
      if (mysql8) args.auth_plugin = plugin;
      args.password = hash;
    } else {
      ctx.log.error('password or password_hash must be specified, unless allow_passwordless=True');
      return false;
    }
  }
  return { qry, args };
}

/** Salt's `mysql.user_create`; False when the account exists or the statement fails. */
export async function userCreate(
  ctx: ExecContext,
  user: string,
  host: string,
  o: UserOpts,
  c: MysqlConnArgs,
): Promise<boolean> {
  const v = await versionOrRetry(ctx, c, str(o.password) || null);
  if (!v) return false;
  if (await userExists(ctx, user, host, {}, v.c)) {
    ctx.log.info(`User '${user}'@'${host}' already exists`);
    return false;
  }
  const column = await passwordColumn(ctx, o.password_column, v.c);
  const q = await createQuery(ctx, v.version, user, host, o, v.c);
  if (q === false) return false;
  const ran = await withSession(ctx, v.c, false, (s) => tryRun(ctx, s, q.qry, q.args, false, () => true));
  if (!ran) return false;
  const exists = await userExists(
    ctx,
    user,
    host,
    { password: o.password, password_hash: o.password_hash, password_column: column },
    v.c,
  );
  if (exists) {
    const how = str(o.password) || str(o.password_hash) ? '' : ' with passwordless login';
    ctx.log.info(`User '${user}'@'${host}' has been created${how}`);
    return true;
  }
  ctx.log.info(`User '${user}'@'${host}' was not created`);
  return false;
}

async function chpassQuery(
  ctx: ExecContext,
  version: string,
  user: string,
  host: string,
  o: UserOpts,
  column: string,
  plugin: string,
  c: MysqlConnArgs,
): Promise<Query> {
  const mariadb = version.includes('MariaDB');
  const modern = mariadb ? versionCmp(version, '10.4') >= 0 : versionCmp(version, '8.0.11') >= 0;
  const password = str(o.password);
  const hash = str(o.password_hash);
  const args: Record<string, unknown> = {};
  let passwordSql: string;
  if (password !== null) {
    passwordSql = mariadb || !modern ? 'PASSWORD(%(password)s)' : '%(password)s';
    args.password = password;
  } else if (hash !== null) {
    passwordSql = '%(password)s';
    args.password = hash;
  } else if (!isTrue(o.allow_passwordless)) {
    ctx.log.error('password or password_hash must be specified, unless allow_passwordless=True');
    return false;
  } else passwordSql = "''";
  args.user = user;
  args.host = host;
  let qry: string;
  const update = (extra = '') =>
    `UPDATE mysql.user SET ${column}=${passwordSql}${extra} WHERE User=%(user)s AND Host = %(host)s;`;
  if (modern) {
    args.auth_plugin = plugin;
    if (mariadb) qry = `ALTER USER %(user)s@%(host)s IDENTIFIED VIA %(auth_plugin)s USING ${passwordSql}`;
    else {
      qry = 'ALTER USER %(user)s@%(host)s IDENTIFIED WITH %(auth_plugin)s ';
      if (password !== null) qry += 'BY %(password)s;';
      else if (hash !== null) qry += 'AS %(password)s;';
    }
  } else qry = update();
  if (isTrue(o.allow_passwordless) && isTrue(o.unix_socket)) {
    if (host === 'localhost') {
      if (!(await socketPluginOn(ctx, mariadb, c))) return false;
      args.unix_socket = mariadb ? 'unix_socket' : 'auth_socket';
      qry =
        !mariadb && modern
          ? 'ALTER USER %(user)s@%(host)s IDENTIFIED WITH %(unix_socket)s AS %(user)s;'
          : update(', plugin=%(unix_socket)s');
    } else ctx.log.error('Auth via unix_socket can be set only for host=localhost');
  }
  return { qry, args };
}

/** Salt's `mysql.user_chpass`: sets, or with allow_passwordless clears, the account's password. */
export async function userChpass(
  ctx: ExecContext,
  user: string,
  host: string,
  o: UserOpts,
  c: MysqlConnArgs,
): Promise<boolean> {
  const v = await versionOrRetry(ctx, c, str(o.password) || null);
  if (!v) return false;
  if (!(await userExists(ctx, user, host, {}, v.c))) {
    ctx.log.info(`User '${user}'@'${host}' does not exists`);
    return false;
  }
  const column = await passwordColumn(ctx, o.password_column, v.c);
  const plugin = await authPlugin(ctx, user, host, v.c);
  const q = await chpassQuery(ctx, v.version, user, host, o, column, plugin, v.c);
  if (q === false) return false;
  const done = await withSession(ctx, v.c, false, (s) =>
    tryRun(ctx, s, q.qry, q.args, false, async (r) => {
      const modern = versionCmp(v.version, v.version.includes('MariaDB') ? '10.4.0' : '8.0.11') >= 0;
      if (!modern && !r.count) return false;
      await s.run('FLUSH PRIVILEGES;');
      return true;
    }),
  );
  const what = str(o.password) || str(o.password_hash) ? 'changed' : 'cleared';
  ctx.log.info(`Password for user '${user}'@'${host}' ${done ? 'has been' : 'was not'} ${what}`);
  return done;
}

/** Salt's `mysql.user_remove`: `DROP USER`; False when the account does not exist. */
export async function userRemove(
  ctx: ExecContext,
  user: string,
  host: string,
  c: MysqlConnArgs,
): Promise<boolean> {
  if (!(await userExists(ctx, user, host, {}, c))) {
    const err = `User '${user}'@'${host}' does not exists`;
    setMysqlError(ctx, err);
    ctx.log.info(err);
    return false;
  }
  const dropped = await withSession(ctx, c, false, (s) =>
    tryRun(ctx, s, 'DROP USER %(user)s@%(host)s', { user, host }, false, () => true),
  );
  if (!dropped) return false;
  const gone = !(await userExists(ctx, user, host, {}, c));
  ctx.log.info(`User '${user}'@'${host}' has${gone ? '' : ' NOT'} been removed`);
  return gone;
}
