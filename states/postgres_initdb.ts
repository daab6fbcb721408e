/**
 * Salt's `postgres_initdb` state module (`salt/states/postgres_initdb.py`): a PostgreSQL data
 * directory initialized with initdb (through `postgres.datadir_exists`/`datadir_init`).
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgName, psqlPresent } from './_pg-state-args.js';

const present = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      user: z.unknown().default(null),
      password: z.unknown().default(null),
      auth: z.string().default('password'),
      encoding: z.string().default('UTF8'),
      locale: z.unknown().default(null),
      runas: z.unknown().default(null),
      waldir: z.unknown().default(null),
      checksums: z.unknown().default(false),
    }),
  doc: `Initialize the PostgreSQL data directory (name) with initdb.

user: the database superuser (runas by default); password: its password (given to initdb on its stdin).
auth: the authentication method for local connections (password); encoding (UTF8), locale: the defaults of new databases.
waldir: a separate WAL directory; checksums: data page checksums; runas: the system user initdb runs as (postgres).`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const comment = `Postgres data directory ${name} is already present`;
    const ret: StateReturn = { name, changes: {}, result: true, comment };
    if (await ctx.call('postgres.datadir_exists', [], { name })) return ret;
    if (ctx.test)
      return { ...ret, result: null, comment: `Postgres data directory ${name} is set to be initialized` };
    const { user, password, auth, encoding, locale, waldir, checksums, runas } = a;
    const kw = { user, password, auth, encoding, locale, waldir, checksums, runas };
    if (await ctx.call('postgres.datadir_init', [name], kw))
      return {
        ...ret,
        comment: `Postgres data directory ${name} has been initialized`,
        changes: { [name]: 'Present' },
      };
    return { ...ret, result: false, comment: `Postgres data directory ${name} initialization failed` };
  },
});

export default defineStateModule({
  name: 'postgres_initdb',
  doc: 'Initialization of PostgreSQL data directories.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present },
});
