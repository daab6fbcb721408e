/**
 * Salt's `postgres_privileges` state module (`salt/states/postgres_privileges.py`): privileges
 * on a table, sequence (one, or `ALL` in the `prepend` schema), schema, tablespace, language,
 * database or function granted to a role or revoked from it, or a role's membership of a group,
 * through the `postgres` module's `has_privileges`/`privileges_grant`/`privileges_revoke`.
 */
import type { z } from 'zod';
import {
  defineState,
  defineStateModule,
  type StateContext,
  type StateReturn,
} from '../plugins/states/index.js';
import { dbArgs, pgName, pgStateConn, psqlPresent } from './_pg-state-args.js';

/** Salt's order: `grant_option` (present only) before `prepend`, `maintenance_db` before `user`. */
const target = (z: typeof import('zod').z, grantOption: boolean) => {
  const { user, maintenance_db, ...conn } = pgStateConn(z);
  return {
    name: pgName(z),
    object_name: pgName(z),
    object_type: z.string(),
    privileges: z.unknown().default(null),
    ...(grantOption ? { grant_option: z.unknown().default(null) } : {}),
    prepend: z.string().default('public'),
    maintenance_db,
    user,
    ...conn,
  };
};

/** Salt joins the list with commas (a string's characters, so a string is refused as invalid). */
function joined(privileges: unknown): string | null {
  if (privileges === null || privileges === undefined || privileges === '' || privileges === false)
    return null;
  if (Array.isArray(privileges)) return privileges.length === 0 ? null : privileges.map(String).join(',');
  return [...String(privileges)].join(',');
}

type Args = z.output<z.ZodObject<ReturnType<typeof target>>> & { grant_option?: unknown };

const WORDS = {
  present: {
    none: 'The requested privilege(s) are already set',
    test: 'are set to be granted to',
    done: 'have been granted to',
    fail: 'Failed to grant privilege(s):',
    to: 'to',
    fun: 'postgres.privileges_grant',
    change: 'Present',
  },
  absent: {
    none: 'The requested privilege(s) are not set so cannot be revoked',
    test: 'are set to be revoked from',
    done: 'have been revoked from',
    fail: 'Failed to revoke privilege(s):',
    to: 'from',
    fun: 'postgres.privileges_revoke',
    change: 'Absent',
  },
} as const;

/** Salt's present and absent, one logic: ask has_privileges, then grant or revoke. */
async function apply(ctx: StateContext, a: Args, kind: keyof typeof WORDS): Promise<StateReturn> {
  const w = WORDS[kind];
  const { name } = a;
  const ret: StateReturn = { name, changes: {}, result: true, comment: w.none };
  const privileges = joined(a.privileges);
  const grant = kind === 'present' ? { grant_option: a.grant_option ?? null } : {};
  const kw = { privileges, ...grant, prepend: a.prepend, ...dbArgs(a) };
  const args = [name, a.object_name, a.object_type];
  if (Boolean(await ctx.call('postgres.has_privileges', args, kw)) === (kind === 'present')) return ret;
  const privs = a.object_type === 'group' ? a.object_name : (privileges ?? 'None');
  if (ctx.test) return { ...ret, result: null, comment: `The privilege(s): ${privs} ${w.test} ${name}` };
  if (await ctx.call(w.fun, args, kw))
    return { ...ret, changes: { [name]: w.change }, comment: `The privilege(s): ${privs} ${w.done} ${name}` };
  return { ...ret, result: false, comment: `${w.fail} ${privs} ${w.to} ${name}` };
}

const present = defineState({
  args: (z) => z.object(target(z, true)),
  doc: `Grant the privileges on the object to the role (name), or make the role a member of the group object_name.

object_type: table, sequence, schema, tablespace, language, database, group or function (a view is a table).
object_name: the object; ALL: every table or sequence of the prepend schema.
privileges: a list of SELECT, INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES, TRIGGER, CREATE, CONNECT, TEMPORARY, EXECUTE, USAGE or ALL (none for a group).
grant_option: the role may grant them on (for a group: WITH ADMIN OPTION).
prepend: the schema of a table, sequence or function (public).
user: the system user to run psql as; maintenance_db, db_user, db_password, db_host, db_port: the connection.`,
  run: (ctx, a) => apply(ctx, a, 'present'),
});

const absent = defineState({
  args: (z) => z.object(target(z, false)),
  doc: "Revoke the privileges on the object from the role (name), or end its membership of the group object_name; the arguments are present's, without grant_option.",
  run: (ctx, a) => apply(ctx, a, 'absent'),
});

export default defineStateModule({
  name: 'postgres_privileges',
  doc: 'Management of PostgreSQL privileges: grants on objects and group membership.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
