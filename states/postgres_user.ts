/**
 * Salt's `postgres_user` state module (`salt/states/postgres_user.py`): PostgreSQL roles that
 * log in, through the `postgres` execution module.
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
      replication: z.unknown().default(null),
      inherit: z.unknown().default(null),
      login: z.unknown().default(null),
      password: z.unknown().default(null),
      default_password: z.unknown().default(null),
      refresh_password: z.unknown().default(null),
      valid_until: z.unknown().default(null),
      groups: z.unknown().default(null),
      ...pgStateConn(z),
    }),
  doc: `Ensure that the named user is present with the specified privileges.

password: set when creating, and changed when it does not match (md5 or scram-sha-256 per encrypted, md5 by default); default_password is used on creation only; refresh_password always sets it without reading the stored one.
groups: roles the user should belong to (a list or comma-separated); valid_until: the password's expiry.
user: the system user to run psql as; db_user, db_password, db_host, db_port, maintenance_db: the connection.`,
  run: (ctx, a) => rolePresent(ctx, 'user', a),
});

const absent = defineState({
  args: (z) => z.object({ name: pgName(z), ...pgStateConn(z) }),
  doc: 'Ensure that the named user is absent.',
  run: (ctx, a) => roleAbsent(ctx, 'user', a),
});

export default defineStateModule({
  name: 'postgres_user',
  doc: 'Management of PostgreSQL users (roles that can log in).',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
