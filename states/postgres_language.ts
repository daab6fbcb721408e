/**
 * Salt's `postgres_language` state module (`salt/states/postgres_language.py`): a procedural
 * language installed in a database or absent, through the `postgres` execution module.
 * Unlike Salt's `absent` (which calls `language_remove` without the database and fails), the
 * database is passed on.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgName, psqlPresent } from './_pg-state-args.js';

const args = (z: typeof import('zod').z) =>
  z.object({
    name: pgName(z),
    maintenance_db: pgName(z),
    user: z.unknown().default(null),
    db_password: z.unknown().default(null),
    db_host: z.unknown().default(null),
    db_port: z.unknown().default(null),
    db_user: z.unknown().default(null),
  });
const dbArgs = (a: {
  user: unknown;
  db_host: unknown;
  db_user: unknown;
  db_port: unknown;
  db_password: unknown;
}) => ({
  runas: a.user,
  host: a.db_host,
  user: a.db_user,
  port: a.db_port,
  password: a.db_password,
});

const present = defineState({
  args,
  doc: 'Ensure that the named language is installed in the database (maintenance_db).',
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = {
      name,
      changes: {},
      result: true,
      comment: `Language ${name} is already installed`,
    };
    const db = dbArgs(a);
    const langs = (await ctx.call('postgres.language_list', [a.maintenance_db], db)) as Record<
      string,
      string
    >;
    if (name in langs) return ret;
    if (ctx.test) return { ...ret, result: null, comment: `Language ${name} is set to be installed` };
    if (await ctx.call('postgres.language_create', [name, a.maintenance_db], db))
      return { ...ret, comment: `Language ${name} has been installed`, changes: { [name]: 'Present' } };
    return { ...ret, result: false, comment: `Failed to install language ${name}` };
  },
});

const absent = defineState({
  args,
  doc: 'Ensure that the named language is absent from the database (maintenance_db).',
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    const db = dbArgs(a);
    if (await ctx.call('postgres.language_exists', [name, a.maintenance_db], db)) {
      if (ctx.test) return { ...ret, result: null, comment: `Language ${name} is set to be removed` };
      if (await ctx.call('postgres.language_remove', [name, a.maintenance_db], db))
        return { ...ret, comment: `Language ${name} has been removed`, changes: { [name]: 'Absent' } };
      ret.result = false;
    }
    return { ...ret, comment: `Language ${name} is not present so it cannot be removed` };
  },
});

export default defineStateModule({
  name: 'postgres_language',
  doc: 'Management of PostgreSQL procedural languages.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
