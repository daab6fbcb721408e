/**
 * Roles (users and groups) for Salt's `postgres` module: `user_list`'s query and rows, and the
 * CREATE/ALTER ROLE text `_role_cmd_args` builds (flags, password verifier, VALID UNTIL,
 * GRANTs of groups).
 */
import type { ExecContext } from '../kernel/index.js';
import { parseCsv } from './_pg-csv.js';
import { maybeEncrypt } from './_pg-password.js';
import { type PgConn, pgExec, pgVersion, psqlQuery } from './_pg-run.js';

export type RoleRow = Record<string, unknown>;

const BOOL_KEYS = [
  'superuser',
  'inherits privileges',
  'can create roles',
  'can create databases',
  'can update system catalogs',
  'can login',
  'replication',
  'connections',
] as const;

const bool = (v: string | undefined): boolean | null => (v === 't' ? true : v === 'f' ? false : null);

/** Major.minor of a version text as numbers, for the >= 9.1 / 9.5 column choices. */
function atLeast(version: string, major: number, minor: number): boolean {
  const m = /^(\d+)(?:\.(\d+))?/.exec(version);
  if (!m) return true;
  const a = Number(m[1]);
  return a > major || (a === major && Number(m[2] ?? 0) >= minor);
}

/** Salt's `user_list`: {role: info}; false when the server's version cannot be read. */
export async function userList(
  ctx: ExecContext,
  conn: PgConn,
  returnPassword = false,
): Promise<Record<string, RoleRow> | false> {
  const ver = await pgVersion(ctx, conn);
  if (!ver) {
    ctx.log.error('Could not retrieve Postgres version. Is Postgresql server running?');
    return false;
  }
  const replication = atLeast(ver, 9, 1) ? 'pg_roles.rolreplication' : 'NULL';
  const catupdate = atLeast(ver, 9, 5) ? 'NULL' : 'pg_roles.rolcatupdate';
  const x = (s: string) => (returnPassword ? s : '');
  const query =
    'SELECT pg_roles.rolname as "name",pg_roles.rolsuper as "superuser",' +
    ' pg_roles.rolinherit as "inherits privileges", pg_roles.rolcreaterole as' +
    ` "can create roles", pg_roles.rolcreatedb as "can create databases", ${catupdate}` +
    ` as "can update system catalogs", pg_roles.rolcanlogin as "can login", ${replication}` +
    ' as "replication", pg_roles.rolconnlimit as "connections", (SELECT' +
    ' array_agg(pg_roles2.rolname)    FROM pg_catalog.pg_auth_members    JOIN' +
    ' pg_catalog.pg_roles pg_roles2 ON (pg_auth_members.roleid = pg_roles2.oid)' +
    '    WHERE pg_auth_members.member = pg_roles.oid) as' +
    ' "groups",pg_roles.rolvaliduntil::timestamp(0) as "expiry time",' +
    ' pg_roles.rolconfig  as "defaults variables" ' +
    x(', COALESCE(pg_shadow.passwd, pg_authid.rolpassword) as "password" ') +
    'FROM pg_roles ' +
    x('LEFT JOIN pg_authid ON pg_roles.oid = pg_authid.oid ') +
    x('LEFT JOIN pg_shadow ON pg_roles.oid = pg_shadow.usesysid');
  const out: Record<string, RoleRow> = {};
  for (const row of await psqlQuery(ctx, query, conn)) {
    const info: RoleRow = {};
    // Salt reads "connections" as a boolean too: it is None unless the text is t or f
    for (const key of BOOL_KEYS) info[key] = bool(row[key]);
    const expiry = row['expiry time'] ?? '';
    info['expiry time'] = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(expiry) ? expiry : null;
    info['defaults variables'] = row['defaults variables'] ?? '';
    if (returnPassword) info.password = row.password ?? '';
    info.groups = parseCsv((row.groups ?? '').replace(/^[{}]+|[{}]+$/g, ''))[0] ?? [];
    out[row.name ?? ''] = info;
  }
  return out;
}

/** Salt's `role_get`: one role's info or null. */
export async function roleGet(
  ctx: ExecContext,
  name: string,
  conn: PgConn,
  returnPassword = false,
): Promise<RoleRow | null> {
  const all = await userList(ctx, conn, returnPassword);
  if (all === false) {
    ctx.log.error('Could not retrieve Postgres role. Is Postgres running?');
    return null;
  }
  return all[name] ?? null;
}

/** The role's options as the module's functions take them. */
export interface RoleOpts {
  createdb?: unknown;
  createroles?: unknown;
  encrypted?: unknown;
  superuser?: unknown;
  login?: unknown;
  connlimit?: unknown;
  inherit?: unknown;
  replication?: unknown;
  rolepassword?: unknown;
  valid_until?: unknown;
  groups?: unknown;
}

export type RoleKind = 'role' | 'user' | 'group';

const isSet = (v: unknown) => v !== null && v !== undefined;

function flag(
  into: string,
  test: unknown,
  name: string,
  o: { cond?: unknown; prefix?: string; addtxt?: string; skip?: boolean } = {},
): string {
  if (o.skip) return into;
  const cond = o.cond === undefined ? test : o.cond;
  let s = into;
  if (isSet(test)) s = cond ? `${s} ${name}` : `${s} ${o.prefix ?? 'NO'}${name}`;
  if (o.addtxt) s = `${s} ${o.addtxt}`;
  return s;
}

/** Salt's `_role_cmd_args`: what follows `CREATE ROLE "x" WITH` / `ALTER ROLE "x" WITH`. */
export function roleCmdArgs(
  name: string,
  kind: RoleKind,
  o: RoleOpts,
  dbRole: RoleRow | null = null,
): string {
  const inherit = o.inherit ?? (kind === 'user' || kind === 'group' ? true : null);
  const login = o.login ?? (kind === 'user' ? true : kind === 'group' ? false : null);
  const encrypted = o.encrypted ?? 'md5';
  const pw = o.rolepassword;
  const skipPasswd = !((isSet(pw) && typeof pw === 'string' && pw !== '') || typeof pw === 'boolean');
  const escapedPassword =
    typeof pw === 'string' && pw !== '' ? `'${maybeEncrypt(name, pw.replaceAll("'", "''"), encrypted)}'` : '';
  const vu = o.valid_until;
  const escapedValid = typeof vu === 'string' && vu !== '' ? `'${vu.replaceAll("'", "''")}'` : '';
  const skipSuper = Boolean(dbRole) && Boolean(o.superuser) === Boolean(dbRole?.superuser);
  const truthy = (v: unknown) => Boolean(v) && v !== '' && v !== 0;
  let s = '';
  s = flag(s, inherit, 'INHERIT');
  s = flag(s, o.createdb, 'CREATEDB');
  s = flag(s, o.createroles, 'CREATEROLE');
  s = flag(s, o.superuser, 'SUPERUSER', { skip: skipSuper });
  s = flag(s, o.replication, 'REPLICATION');
  s = flag(s, login, 'LOGIN');
  s = flag(s, truthy(o.connlimit), 'CONNECTION LIMIT', {
    addtxt: String(o.connlimit),
    skip: !isSet(o.connlimit),
  });
  s = flag(s, isSet(encrypted) && truthy(pw), 'ENCRYPTED', {
    skip: skipPasswd || typeof pw === 'boolean',
    cond: truthy(encrypted),
    prefix: 'UN',
  });
  s = flag(s, truthy(pw), 'PASSWORD', { skip: skipPasswd, addtxt: escapedPassword });
  s = flag(s, truthy(vu), 'VALID UNTIL', { skip: !isSet(vu), addtxt: escapedValid });
  const groups = Array.isArray(o.groups) ? o.groups.map(String).join(',') : o.groups ? String(o.groups) : '';
  if (groups) for (const g of groups.split(',')) s = `${s}; GRANT "${g}" TO "${name}"`;
  return s;
}

/** Salt's `_role_create`: false when the role exists or psql fails. */
export async function roleCreate(
  ctx: ExecContext,
  name: string,
  kind: RoleKind,
  o: RoleOpts,
  conn: PgConn,
): Promise<boolean> {
  if (await roleGet(ctx, name, conn)) {
    ctx.log.info(`${kind[0]?.toUpperCase()}${kind.slice(1)} '${name}' already exists`);
    return false;
  }
  return pgExec(ctx, `CREATE ROLE "${name}" WITH ${roleCmdArgs(name, kind, o)}`, conn, true);
}

/** Salt's `_role_update`: false when the role is missing or psql fails. */
export async function roleUpdate(
  ctx: ExecContext,
  name: string,
  kind: RoleKind,
  o: RoleOpts,
  conn: PgConn,
): Promise<boolean> {
  const role = await roleGet(ctx, name, conn);
  if (!role) {
    ctx.log.info(`${kind[0]?.toUpperCase()}${kind.slice(1)} '${name}' could not be found`);
    return false;
  }
  // Salt passes no type here: a user's or group's defaults for login and inherit do not apply
  return pgExec(ctx, `ALTER ROLE "${name}" WITH ${roleCmdArgs(name, 'role', o, role)}`, conn, true);
}

/** Salt's `_role_remove`: true when the role is gone afterwards. */
export async function roleRemove(ctx: ExecContext, name: string, conn: PgConn): Promise<boolean> {
  if (!(await roleGet(ctx, name, conn))) {
    ctx.log.info(`User '${name}' does not exist`);
    return false;
  }
  await pgExec(ctx, `DROP ROLE "${name}"`, conn);
  if (!(await roleGet(ctx, name, conn))) return true;
  ctx.log.info(`Failed to delete user '${name}'.`);
  return false;
}
