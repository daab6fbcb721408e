/**
 * Salt's `postgres_group` state module (`salt/states/postgres_group.py`): PostgreSQL roles
 * that do not log in by default, through the `postgres` execution module.
 */
import { defineState, defineStateModule } from '../plugins/states/index.js';
import { roleAbsent, rolePresent } from './_pg-role-state.js';
import { pgName, pgStateConn, psqlPresent } from './_pg-state-args.js';

const present = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      createdb: z.unknown().default(null),
      createroles: z.unknown().default(null),
      encrypted: z.unknown().default(null),
      superuser: z.unknown().default(null),
      inherit: z.unknown().default(null),
      login: z.unknown().default(null),
      replication: z.unknown().default(null),
      password: z.unknown().default(null),
      refresh_password: z.unknown().default(null),
      groups: z.unknown().default(null),
      ...pgStateConn(z),
    }),
  doc: `Ensure that the named group is present with the specified privileges.

password: set when creating, changed when it does not match (never shown); groups: roles the group should belong to.
user: the system user to run psql as; db_user, db_password, db_host, db_port, maintenance_db: the connection.`,
  run: (ctx, a) => rolePresent(ctx, 'group', a),
});

const absent = defineState({
  args: (z) => z.object({ name: pgName(z), ...pgStateConn(z) }),
  doc: 'Ensure that the named group is absent.',
  run: (ctx, a) => roleAbsent(ctx, 'group', a),
});

export default defineStateModule({
  name: 'postgres_group',
  doc: 'Management of PostgreSQL groups (roles).',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
