/**
 * Salt's `postgres_database` state module (`salt/states/postgres_database.py`): databases
 * present with their owner and tablespace (encoding, collation and ctype cannot change once
 * made), or absent, through the `postgres` execution module.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgAbsentState } from './_pg-absent.js';
import { pgName, pgPresentStart, pgStateConn, psqlPresent } from './_pg-state-args.js';

const str = (v: unknown): string | null => (v === null || v === undefined || v === '' ? null : String(v));

const present = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      tablespace: z.unknown().default(null),
      encoding: z.unknown().default(null),
      lc_collate: z.unknown().default(null),
      lc_ctype: z.unknown().default(null),
      owner: z.unknown().default(null),
      owner_recurse: z.unknown().default(false),
      template: z.unknown().default(null),
      ...pgStateConn(z),
    }),
  doc: `Ensure that the named database is present with the specified properties.

owner, tablespace: changed on an existing database (owner_recurse: its objects too); encoding, lc_collate, lc_ctype, template: used on creation, a mismatch later is an error.
user: the system user to run psql as; db_user, db_password, db_host, db_port, maintenance_db: the connection.`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const { ret, db } = pgPresentStart(name, 'Database', a);
    const dbs = (await ctx.call('postgres.db_list', [], db)) as Record<string, Record<string, string>>;
    const p = dbs[name];
    const [tablespace, encoding, collate, ctype, owner] = [
      a.tablespace,
      a.encoding,
      a.lc_collate,
      a.lc_ctype,
      a.owner,
    ].map(str);
    if (p) {
      const enc = (p.Encoding ?? '').toLowerCase();
      if (
        (!tablespace || p.Tablespace === tablespace) &&
        (!encoding || enc === encoding.toLowerCase()) &&
        (!collate || p.Collate === collate) &&
        (!ctype || p.Ctype === ctype) &&
        (!owner || p.Owner === owner)
      )
        return ret;
      if (
        (encoding && enc !== encoding.toLowerCase()) ||
        (collate && p.Collate !== collate) ||
        (ctype && p.Ctype !== ctype)
      )
        return {
          ...ret,
          result: false,
          comment: `Database ${name} has wrong parameters which couldn't be changed on fly.`,
        };
    }
    if (ctx.test)
      return {
        ...ret,
        result: null,
        comment: p
          ? `Database ${name} exists, but parameters need to be changed`
          : `Database ${name} is set to be created`,
      };
    if (!p) {
      const made = await ctx.call('postgres.db_create', [name], {
        tablespace: a.tablespace,
        encoding: a.encoding,
        lc_collate: a.lc_collate,
        lc_ctype: a.lc_ctype,
        owner: a.owner,
        template: a.template,
        ...db,
      });
      return made
        ? { ...ret, comment: `The database ${name} has been created`, changes: { [name]: 'Present' } }
        : { ...ret, result: false, comment: `Failed to create database ${name}` };
    }
    const altered = await ctx.call('postgres.db_alter', [name], {
      tablespace: a.tablespace,
      owner: a.owner,
      owner_recurse: a.owner_recurse,
      ...db,
    });
    return altered
      ? {
          ...ret,
          comment: `Parameters for database ${name} have been changed`,
          changes: { [name]: 'Parameters changed' },
        }
      : { ...ret, result: false, comment: `Failed to change parameters for database ${name}` };
  },
});

const absent = pgAbsentState('Database', 'postgres.db_exists', 'postgres.db_remove');

export default defineStateModule({
  name: 'postgres_database',
  doc: 'Management of PostgreSQL databases.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
