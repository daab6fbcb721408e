/**
 * Salt's privilege functions of the `postgres` module: an object's ACL (`relacl`, `nspacl`,
 * `datacl`, ...) read as {role: {PRIVILEGE: grant option}}, a group's members as {role: admin
 * option}, and GRANT/REVOKE on tables, sequences (one, or `ALL` in a schema), schemas,
 * tablespaces, languages, databases, functions and group membership. The owner of an object
 * holds every privilege on it, as Salt counts it.
 */
import type { ExecContext } from '../kernel/index.js';
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { type PgConn, pgExec, psqlQuery, quoteDdl } from './_pg-run.js';

const PRIVILEGES: Readonly<Record<string, string>> = {
  a: 'INSERT',
  C: 'CREATE',
  D: 'TRUNCATE',
  c: 'CONNECT',
  t: 'TRIGGER',
  r: 'SELECT',
  U: 'USAGE',
  T: 'TEMPORARY',
  w: 'UPDATE',
  X: 'EXECUTE',
  x: 'REFERENCES',
  d: 'DELETE',
  '*': 'GRANT',
};

/** The ACL letters each object type can hold (a group's "privilege" is its membership). */
const TYPE_PRIVILEGES: Readonly<Record<string, string>> = {
  table: 'arwdDxt',
  tablespace: 'C',
  language: 'U',
  sequence: 'rwU',
  schema: 'UC',
  database: 'CTc',
  function: 'X',
};

const OBJECT_TYPES = new Set([...Object.keys(TYPE_PRIVILEGES), 'group']);

const lit = (v: string) => v.replaceAll("'", "''");

/** The ACL (or, for a group, the members) of one object. */
function aclQuery(name: string, type: string, schema: string): string {
  const [n, s] = [lit(name), lit(schema)];
  const rel = (kind: string) =>
    'SELECT relacl AS name FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace ' +
    `WHERE nspname = '${s}' AND relname = '${n}' AND relkind ${kind}`;
  switch (type) {
    case 'table':
      return rel("in ('r', 'v')");
    case 'sequence':
      return rel("= 'S'");
    case 'schema':
      return `SELECT nspacl AS name FROM pg_catalog.pg_namespace WHERE nspname = '${n}'`;
    case 'function':
      return (
        'SELECT proacl AS name FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace ' +
        `WHERE nspname = '${s}' AND p.oid::regprocedure::text = '${n}'`
      );
    case 'tablespace':
      return `SELECT spcacl AS name FROM pg_catalog.pg_tablespace WHERE spcname = '${n}'`;
    case 'language':
      return `SELECT lanacl AS name FROM pg_catalog.pg_language WHERE lanname = '${n}'`;
    case 'database':
      return `SELECT datacl AS name FROM pg_catalog.pg_database WHERE datname = '${n}'`;
    default:
      return (
        'SELECT rolname, admin_option FROM pg_catalog.pg_auth_members m JOIN pg_catalog.pg_roles r ON m.member = r.oid ' +
        `WHERE m.roleid IN (SELECT oid FROM pg_catalog.pg_roles WHERE rolname = '${n}') ORDER BY rolname`
      );
  }
}

/** The owner of one object, or null (no such object). */
async function objectOwner(
  ctx: ExecContext,
  name: string,
  type: string,
  schema: string,
  conn: PgConn,
): Promise<string | null> {
  const [n, s] = [lit(name), lit(schema)];
  const q: Record<string, string> = {
    table: `SELECT tableowner AS name FROM pg_tables WHERE schemaname = '${s}' AND tablename = '${n}'`,
    sequence:
      'SELECT rolname AS name FROM pg_catalog.pg_class c JOIN pg_roles r ON c.relowner = r.oid ' +
      `JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE relkind = 'S' AND nspname = '${s}' AND relname = '${n}'`,
    schema: `SELECT rolname AS name FROM pg_namespace n JOIN pg_roles r ON n.nspowner = r.oid WHERE nspname = '${n}'`,
    function:
      'SELECT rolname AS name FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace ' +
      `JOIN pg_catalog.pg_roles r ON p.proowner = r.oid WHERE nspname = '${s}' AND p.oid::regprocedure::text = '${n}'`,
    tablespace: `SELECT rolname AS name FROM pg_tablespace t JOIN pg_roles r ON t.spcowner = r.oid WHERE spcname = '${n}'`,
    language: `SELECT rolname AS name FROM pg_language l JOIN pg_roles r ON l.lanowner = r.oid WHERE lanname = '${n}'`,
    database: `SELECT rolname AS name FROM pg_database d JOIN pg_roles r ON d.datdba = r.oid WHERE datname = '${n}'`,
  };
  const rows = await psqlQuery(ctx, q[type] as string, conn);
  return rows[0]?.name ?? null;
}

/** `arw*` → {INSERT: false, SELECT: false, UPDATE: true}: `*` marks the letter before it grantable. */
function aclPart(letters: string): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  let previous: string | null = null;
  for (const ch of letters) {
    if (ch === '*' && previous !== null) out[previous] = true;
    else {
      previous = PRIVILEGES[ch] ?? ch;
      out[previous] = false;
    }
  }
  return out;
}

/** Splits `{role=arw/grantor,"a b"=r/grantor}` into its items, quotes respected. */
function aclItems(acl: string): string[] {
  const body = acl.replace(/^\{/, '').replace(/\}$/, '');
  const items: string[] = [];
  let cur = '';
  let quoted = false;
  for (const ch of body) {
    if (ch === '"') quoted = !quoted;
    if (ch === ',' && !quoted) {
      items.push(cur);
      cur = '';
    } else cur += ch;
  }
  if (cur !== '') items.push(cur);
  return items;
}

/** One ACL item's role and letters; the role `''` is PUBLIC, a quoted role loses its quotes. */
function aclItem(item: string): [string, string] {
  const slash = item.lastIndexOf('/');
  const grant = slash < 0 ? item : item.slice(0, slash);
  const eq = grant.lastIndexOf('=');
  let role = grant.slice(0, eq);
  if (role.startsWith('"') && role.endsWith('"')) role = role.slice(1, -1).replaceAll('""', '"');
  return [role === '' ? 'public' : role, grant.slice(eq + 1)];
}

export type PrivilegeList = Record<string, Record<string, boolean> | boolean>;

function checkType(type: string): void {
  if (!OBJECT_TYPES.has(type)) throw new SALT_ERR_INVOCATION(`Invalid object_type: ${type} provided`);
}

/**
 * Salt's `privileges_list`: {role: {PRIVILEGE: grantable}} from the object's ACL, or for a
 * group {member: admin option}. An object with the default ACL (NULL) lists no role.
 */
export async function privilegesList(
  ctx: ExecContext,
  name: string,
  objectType: string,
  schema: string,
  conn: PgConn,
): Promise<PrivilegeList> {
  const type = objectType.toLowerCase();
  checkType(type);
  const out: PrivilegeList = {};
  for (const row of await psqlQuery(ctx, aclQuery(name, type, schema), conn)) {
    if (type === 'group') {
      out[row.rolname ?? ''] = row.admin_option === 't';
      continue;
    }
    for (const item of aclItems(row.name ?? '')) {
      const [role, letters] = aclItem(item);
      out[role] = aclPart(letters);
    }
  }
  return out;
}

/** Salt's `_mod_priv_opts` and `_validate_privileges`: the type lowered, the privileges upper-cased and split. */
function privilegeOpts(objectType: string, privileges: string | null): { type: string; privs: string[] } {
  const type = objectType.toLowerCase();
  const given = privileges ?? '';
  const privs = given.toUpperCase().split(/\s?,\s?/);
  if (type === 'group') {
    if (given) throw new SALT_ERR_INVOCATION('The privileges option should not be set for object_type group');
    return { type, privs };
  }
  const letters = TYPE_PRIVILEGES[type];
  if (letters === undefined) throw new SALT_ERR_INVOCATION(`Invalid object_type: ${type} provided`);
  const allowed = new Set([...letters].map((l) => PRIVILEGES[l]));
  allowed.add('ALL');
  if (!privs.every((p) => allowed.has(p)))
    throw new SALT_ERR_INVOCATION(`Invalid privilege(s): ${given} provided for object ${type}`);
  return { type, privs };
}

export interface PrivilegeArgs {
  role: string;
  objectName: string;
  objectType: string;
  privileges: string | null;
  grantOption: boolean;
  schema: string;
}

/** Salt's `has_privileges`: does the role hold the privileges (with the grant option, when asked)? */
export async function hasPrivileges(ctx: ExecContext, a: PrivilegeArgs, conn: PgConn): Promise<boolean> {
  const { type, privs } = privilegeOpts(a.objectType, a.privileges);
  if (type !== 'group') {
    const owner = await objectOwner(ctx, a.objectName, type, a.schema, conn);
    if (owner !== null && owner === a.role) return true;
  }
  const held = (await privilegesList(ctx, a.objectName, type, a.schema, conn))[a.role];
  if (held === undefined) return false;
  if (typeof held === 'boolean') return a.grantOption ? held : true;
  const all = [...(TYPE_PRIVILEGES[type] ?? '')].map((l) => PRIVILEGES[l] as string);
  const keys = Object.keys(held);
  if (a.grantOption) return keys.length === all.length && all.every((p) => held[p] === true);
  if (privs.includes('ALL')) return keys.length === all.length && all.every((p) => p in held);
  return privs.every((p) => p in held);
}

const ident = (v: string) => quoteDdl(v, '"') as string;

/** The object a GRANT or REVOKE names: `schema."table"`, a function's signature, or `"name"`. */
function onPart(type: string, name: string, schema: string): string {
  if (type === 'table' || type === 'sequence') return `${ident(schema)}.${ident(name)}`;
  if (type === 'function') return name;
  return ident(name);
}

/** Salt's `privileges_grant`: false when the role holds them already, else whether GRANT worked. */
export async function privilegesGrant(ctx: ExecContext, a: PrivilegeArgs, conn: PgConn): Promise<boolean> {
  const { type, privs } = privilegeOpts(a.objectType, a.privileges);
  if (await hasPrivileges(ctx, { ...a, grantOption: false }, conn)) {
    ctx.log.info(
      `The object: ${a.objectName} of type: ${type} already has privileges: ${a.privileges ?? ''} set`,
    );
    return false;
  }
  const grants = privs.join(',');
  const to = ident(a.role);
  let q: string;
  if (type === 'group')
    q = `GRANT ${ident(a.objectName)} TO ${to}${a.grantOption ? ' WITH ADMIN OPTION' : ''}`;
  else {
    const on =
      (type === 'table' || type === 'sequence') && a.objectName.toUpperCase() === 'ALL'
        ? `ALL ${type.toUpperCase()}S IN SCHEMA ${ident(a.schema)}`
        : `${type.toUpperCase()} ${onPart(type, a.objectName, a.schema)}`;
    q = `GRANT ${grants} ON ${on} TO ${to}${a.grantOption ? ' WITH GRANT OPTION' : ''}`;
  }
  return pgExec(ctx, q, conn);
}

/** Salt's `privileges_revoke`: false when the role does not hold them, else whether REVOKE worked. */
export async function privilegesRevoke(ctx: ExecContext, a: PrivilegeArgs, conn: PgConn): Promise<boolean> {
  const { type, privs } = privilegeOpts(a.objectType, a.privileges);
  if (!(await hasPrivileges(ctx, { ...a, grantOption: false }, conn))) {
    ctx.log.info(
      `The object: ${a.objectName} of type: ${type} does not have privileges: ${a.privileges ?? ''} set`,
    );
    return false;
  }
  const q =
    type === 'group'
      ? `REVOKE ${ident(a.objectName)} FROM ${ident(a.role)}`
      : `REVOKE ${privs.join(',')} ON ${type.toUpperCase()} ${onPart(type, a.objectName, a.schema)} FROM ${ident(a.role)}`;
  return pgExec(ctx, q, conn);
}
