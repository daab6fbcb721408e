/**
 * `postgres_user.present/absent` and `postgres_group.present/absent` (Salt's
 * `salt/states/postgres_user.py` and `postgres_group.py`, one logic for both kinds of role):
 * create the role, or update only the attributes that differ; a password is compared with the
 * stored verifier and never shown (changes say `password: True`).
 */
import { maybeEncrypt, verifyPassword } from '../modules/_pg-password.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { dbArgs, type StateDbArgs } from './_pg-state-args.js';

export type RoleKind = 'user' | 'group';

export interface RolePresentArgs extends StateDbArgs {
  name: string;
  createdb?: unknown;
  createroles?: unknown;
  encrypted?: unknown;
  superuser?: unknown;
  replication?: unknown;
  inherit?: unknown;
  login?: unknown;
  password?: unknown;
  default_password?: unknown;
  refresh_password?: unknown;
  valid_until?: unknown;
  groups?: unknown;
}

const cap = (k: RoleKind) => (k === 'user' ? 'User' : 'Group');
const isSet = (v: unknown) => v !== null && v !== undefined;

export async function rolePresent(
  ctx: StateContext,
  kind: RoleKind,
  a: RolePresentArgs,
): Promise<StateReturn> {
  const { name } = a;
  const ret: StateReturn = {
    name,
    changes: {},
    result: true,
    comment: `${cap(kind)} ${name} is already present`,
  };
  const db = dbArgs(a);
  const encrypted = a.encrypted ?? 'md5';
  const attr = (await ctx.call('postgres.role_get', [name], {
    return_password: !a.refresh_password,
    ...db,
  })) as Record<string, unknown> | null;
  const mode = attr ? 'update' : 'create';
  let password: string | null = isSet(a.password) ? String(a.password) : null;
  if (mode === 'create' && password === null && kind === 'user' && isSet(a.default_password))
    password = String(a.default_password);
  if (password !== null) {
    if (mode === 'update' && !a.refresh_password && verifyPassword(name, password, attr?.password, encrypted))
      password = null;
    else password = maybeEncrypt(name, password, encrypted);
  }
  const update: Record<string, unknown> = {};
  if (attr) {
    const check = (arg: unknown, key: string, field: string) => {
      if (isSet(arg) && attr[field] !== arg) update[key] = arg;
    };
    check(a.createdb, 'createdb', 'can create databases');
    check(a.inherit, 'inherit', 'inherits privileges');
    check(a.login, 'login', 'can login');
    check(a.createroles, 'createroles', 'can create roles');
    check(a.replication, 'replication', 'replication');
    check(a.superuser, 'superuser', 'superuser');
    if (password !== null) update.password = true;
    if (kind === 'user' && isSet(a.valid_until)) {
      const rows = (await ctx.call(
        'postgres.psql_query',
        [`SELECT '${String(a.valid_until).replaceAll("'", "''")}'::timestamp(0) as dt;`],
        db,
      )) as Array<Record<string, string>>;
      const dt = rows[0]?.dt ?? '';
      const parsed = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(dt) ? dt : null;
      if (parsed !== attr['expiry time']) update.valid_until = a.valid_until;
    }
    if (isSet(a.groups)) {
      const list = typeof a.groups === 'string' ? a.groups.split(',') : a.groups;
      const have = Array.isArray(attr.groups) ? attr.groups : [];
      if (Array.isArray(list)) {
        const missing = list.filter((g) => !have.includes(g));
        if (missing.length > 0) update.groups = missing;
      }
    }
  }
  const changed = Object.keys(update).length > 0;
  if (mode === 'update' && !changed) return ret;
  if (ctx.test) {
    if (changed) ret.changes = { [name]: update };
    return { ...ret, result: null, comment: `${cap(kind)} ${name} is set to be ${mode}d` };
  }
  const opts: Record<string, unknown> = {
    createdb: a.createdb ?? null,
    createroles: a.createroles ?? null,
    encrypted,
    superuser: a.superuser ?? null,
    login: a.login ?? null,
    inherit: a.inherit ?? null,
    replication: a.replication ?? null,
    rolepassword: password,
    groups: a.groups ?? null,
    ...db,
  };
  if (kind === 'user') opts.valid_until = a.valid_until ?? null;
  const done = await ctx.call(`postgres.${kind}_${mode}`, [name], opts);
  if (!done) return { ...ret, result: false, comment: `Failed to ${mode} ${kind} ${name}` };
  return {
    ...ret,
    comment: `The ${kind} ${name} has been ${mode}d`,
    changes: { [name]: changed ? update : 'Present' },
  };
}

export async function roleAbsent(
  ctx: StateContext,
  kind: RoleKind,
  a: StateDbArgs & { name: string },
): Promise<StateReturn> {
  const { name } = a;
  const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
  const db = dbArgs(a);
  if (!(await ctx.call('postgres.user_exists', [name], db)))
    return { ...ret, comment: `${cap(kind)} ${name} is not present, so it cannot be removed` };
  if (ctx.test) return { ...ret, result: null, comment: `${cap(kind)} ${name} is set to be removed` };
  if (await ctx.call(`postgres.${kind}_remove`, [name], db))
    return { ...ret, comment: `${cap(kind)} ${name} has been removed`, changes: { [name]: 'Absent' } };
  return { ...ret, result: false, comment: `${cap(kind)} ${name} failed to be removed` };
}
