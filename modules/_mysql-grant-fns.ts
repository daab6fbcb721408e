/**
 * The grant functions of Salt's `mysql` module: `user_grants` (`SHOW GRANTS`, passwords cut
 * off), `grant_exists` (privileges compared per database after Salt's tokenizing), `grant_add`
 * and `grant_revoke`, with Salt's False on a grant it cannot generate.
 */
import type { ExecContext } from '../kernel/index.js';
import { type MysqlConnArgs, tryRun, withSession } from './_mysql-conn.js';
import { mysqlError } from './_mysql-context.js';
import { mysqlVersion } from './_mysql-db.js';
import {
  ALL_PRIVILEGES,
  type GrantQuery,
  grantGenerate,
  grantNormalize,
  grantToTokens,
  resolveGrantAliases,
  rpartitionDot,
} from './_mysql-grants.js';
import { isTrue, quoteIdentifier, versionCmp } from './_mysql-sql.js';
import { userExists } from './_mysql-users.js';

/** Salt's `mysql.user_grants`: the account's `SHOW GRANTS` lines; False when it does not exist. */
export async function userGrants(
  ctx: ExecContext,
  user: string,
  host: string,
  c: MysqlConnArgs,
): Promise<string[] | false> {
  if (!(await userExists(ctx, user, host, {}, c))) {
    ctx.log.info(`User '${user}'@'${host}' does not exist`);
    return false;
  }
  return withSession<string[] | false>(ctx, c, false, (s) =>
    tryRun<string[] | false>(ctx, s, 'SHOW GRANTS FOR %(user)s@%(host)s', { user, host }, false, (r) =>
      r.rows.map((row) => {
        const line = String(row[0]);
        let tmp = line.split(' IDENTIFIED BY')[0] ?? '';
        if (line.includes('WITH GRANT OPTION') && !tmp.includes('WITH GRANT OPTION'))
          tmp = `${tmp} WITH GRANT OPTION`;
        return tmp;
      }),
    ),
  );
}

/** A grant as the functions and states name it. */
export interface GrantTarget {
  grant: string;
  /** `db.table`, `db.*` or `*.*`. */
  database: string;
  user: string;
  host: string;
  grantOption: unknown;
  /** Salt's `escape`: quote the database and table names. */
  quoteNames: boolean;
}

const bare = (v: string) => v.replace(/["\\`]/g, '');

/** Salt's `mysql.grant_exists`. */
export async function grantExists(ctx: ExecContext, t: GrantTarget, c: MysqlConnArgs): Promise<boolean> {
  const { grant, database, user, host, grantOption, quoteNames } = t;
  const version = await mysqlVersion(ctx, c);
  if (!version) {
    ctx.log.error(
      `MySQL Error: Unable to fetch current server version. Last error was: "${mysqlError(ctx) ?? 'None'}"`,
    );
    return false;
  }
  let g = grant;
  if (g.toUpperCase().includes('ALL'))
    g =
      versionCmp(version, '8.0') >= 0 && !version.includes('MariaDB') && database === '*.*'
        ? ALL_PRIVILEGES.join(',')
        : 'ALL PRIVILEGES';
  let target: GrantQuery;
  try {
    target = grantGenerate(g, database, user, host, isTrue(grantOption), quoteNames);
  } catch (err) {
    if ((err as { code?: string }).code === 'SALT_ERR_MYSQL_IDENTIFIER') throw err;
    ctx.log.error('Error during grant generation.');
    ctx.log.error(String((err as Error).message));
    return false;
  }
  const grants = await userGrants(ctx, user, host, c);
  if (grants === false) {
    ctx.log.error(
      'Grant does not exist or may not be ordered properly. In some cases, this could also indicate a connection error. Check your configuration.',
    );
    return false;
  }
  const byDb = new Map<string, { user: string; host: string; database: string; grant: string[] }>();
  for (const line of grants) {
    const t = grantToTokens(line);
    t.grant = resolveGrantAliases(t.grant, version);
    const have = byDb.get(t.database);
    if (have) have.grant.push(...t.grant);
    else byDb.set(t.database, { user: t.user, host: t.host, database: t.database, grant: t.grant });
  }
  const want = grantToTokens(target);
  want.grant = resolveGrantAliases(want.grant, version);
  for (const have of byDb.values()) {
    if (
      bare(have.user) === bare(want.user) &&
      bare(have.database) === bare(want.database) &&
      bare(have.host) === bare(want.host) &&
      want.grant.every((p) => have.grant.includes(p))
    )
      return true;
  }
  ctx.log.debug('Grant does not exist, or is perhaps not ordered properly?');
  return false;
}

/** Salt's `mysql.grant_add`: runs the GRANT, then checks it took. */
export async function grantAdd(
  ctx: ExecContext,
  t: GrantTarget,
  sslOption: unknown,
  c: MysqlConnArgs,
): Promise<boolean> {
  const { grant, database, user, host, grantOption, quoteNames } = t;
  const g = grant.trim();
  let q: GrantQuery;
  try {
    q = grantGenerate(g, database, user, host, isTrue(grantOption), quoteNames, sslOption);
  } catch (err) {
    if ((err as { code?: string }).code === 'SALT_ERR_MYSQL_IDENTIFIER') throw err;
    ctx.log.error('Error during grant generation');
    return false;
  }
  const ran = await withSession(ctx, c, false, (s) =>
    tryRun(ctx, s, q.qry, q.args, false, () => true, ['OperationalError', 'ProgrammingError']),
  );
  if (!ran) return false;
  const ok = await grantExists(ctx, { ...t, grant: g }, c);
  ctx.log.info(`Grant '${g}' on '${database}' for user '${user}' has${ok ? '' : ' NOT'} been added`);
  return ok;
}

/** Salt's `mysql.grant_revoke`: runs the REVOKE, then checks the grant is gone. */
export async function grantRevoke(ctx: ExecContext, t: GrantTarget, c: MysqlConnArgs): Promise<boolean> {
  const { grant, database, user, host, grantOption } = t;
  let g = grantNormalize(grant);
  if (isTrue(grantOption)) g += ', GRANT OPTION';
  const [dbc, tbl] = rpartitionDot(database);
  const sDatabase = dbc === '*' ? dbc : quoteIdentifier(dbc, tbl === '*');
  const table = tbl === '*' ? tbl : quoteIdentifier(tbl);
  const qry = `REVOKE ${g} ON ${sDatabase}.${table} FROM %(user)s@%(host)s;`;
  const ran = await withSession(ctx, c, false, (s) => tryRun(ctx, s, qry, { user, host }, false, () => true));
  if (!ran) return false;
  const still = await grantExists(ctx, { ...t, grant: g }, c);
  ctx.log.info(`Grant '${g}' on '${database}' for user '${user}' has${still ? ' NOT' : ''} been revoked`);
  return !still;
}
