/**
 * Salt's `postgres_schema` state module (`salt/states/postgres_schema.py`): a schema present
 * (with an owner when made) or absent in a database, through the `postgres` execution module.
 * Its returns carry `dbname` beside `name`, as Salt's do.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgName, psqlPresent } from './_pg-state-args.js';

const conn = (z: typeof import('zod').z) => ({
  user: z.unknown().default(null),
  db_user: z.unknown().default(null),
  db_password: z.unknown().default(null),
  db_host: z.unknown().default(null),
  db_port: z.unknown().default(null),
});
type Conn = { user: unknown; db_user: unknown; db_password: unknown; db_host: unknown; db_port: unknown };
const dbArgs = (a: Conn) => ({
  db_user: a.db_user,
  db_password: a.db_password,
  db_host: a.db_host,
  db_port: a.db_port,
  user: a.user,
});

const present = defineState({
  args: (z) => z.object({ dbname: pgName(z), name: pgName(z), owner: z.unknown().default(null), ...conn(z) }),
  doc: `Ensure that the named schema is present in the database.

owner: the role that owns it when it is created.
user: the system user to run psql as; db_user, db_password, db_host, db_port: the connection.`,
  async run(ctx, a): Promise<StateReturn> {
    const { dbname, name } = a;
    const ret: StateReturn = { dbname, name, changes: {}, result: true, comment: '' };
    const db = dbArgs(a);
    if ((await ctx.call('postgres.schema_get', [dbname, name], db)) !== null)
      return { ...ret, comment: `Schema ${name} already exists in database ${dbname}` };
    if (ctx.test)
      return { ...ret, result: null, comment: `Schema ${name} is set to be created in database ${dbname}.` };
    if (await ctx.call('postgres.schema_create', [dbname, name], { owner: a.owner, ...db }))
      return {
        ...ret,
        changes: { [name]: 'Present' },
        comment: `Schema ${name} has been created in database ${dbname}`,
      };
    return { ...ret, result: false, comment: `Failed to create schema ${name} in database ${dbname}` };
  },
});

const absent = defineState({
  args: (z) => z.object({ dbname: pgName(z), name: pgName(z), ...conn(z) }),
  doc: 'Ensure that the named schema is absent from the database.',
  async run(ctx, a): Promise<StateReturn> {
    const { dbname, name } = a;
    const ret: StateReturn = { name, dbname, changes: {}, result: true, comment: '' };
    const db = dbArgs(a);
    if (!(await ctx.call('postgres.schema_exists', [dbname, name], db)))
      return {
        ...ret,
        comment: `Schema ${name} is not present in database ${dbname}, so it cannot be removed`,
      };
    if (ctx.test)
      return { ...ret, result: null, comment: `Schema ${name} is set to be removed from database ${dbname}` };
    if (await ctx.call('postgres.schema_remove', [dbname, name], db))
      return {
        ...ret,
        changes: { [name]: 'Absent' },
        comment: `Schema ${name} has been removed from database ${dbname}`,
      };
    return { ...ret, result: false, comment: `Schema ${name} failed to be removed` };
  },
});

export default defineStateModule({
  name: 'postgres_schema',
  doc: 'Management of PostgreSQL schemas.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
