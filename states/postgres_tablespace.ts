/**
 * Salt's `postgres_tablespace` state module (`salt/states/postgres_tablespace.py`): a
 * tablespace present at a directory (which must exist, owned by the server's user) with an
 * owner and options, or absent. Unlike Salt's, a test run changes nothing (Salt's alters the
 * owner while it predicts), a failed CREATE is a failure (Salt's raises a KeyError), and
 * the owner and options are altered over the state's own connection (Salt's uses the
 * `postgres.*` options).
 */

import { pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { pgAbsentState } from './_pg-absent.js';
import { pgName, pgPresentStart, pgStateConn, psqlPresent } from './_pg-state-args.js';

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const present = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      directory: pgName(z),
      options: z.unknown().default(null),
      owner: z.unknown().default(null),
      ...pgStateConn(z),
    }),
  doc: `Ensure that the named tablespace is present with the specified properties.

directory: where it is (it must exist; a different directory later is an error).
options: a dict of tablespace options (seq_page_cost, random_page_cost, ...), set when they differ.
owner: the role that owns it (default: the role connecting).
user: the system user to run psql as; maintenance_db, db_user, db_password, db_host, db_port: the connection.`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const { ret, db } = pgPresentStart(name, 'Tablespace', a);
    const spaces = (await ctx.call('postgres.tablespace_list', [], db)) as Record<
      string,
      Record<string, string>
    >;
    const have = spaces[name];
    if (have === undefined) {
      if (ctx.test) return { ...ret, result: null, comment: `Tablespace ${name} is set to be created` };
      if (await ctx.call('postgres.tablespace_create', [name, a.directory, a.options, a.owner], db))
        return { ...ret, comment: `The tablespace ${name} has been created`, changes: { [name]: 'Present' } };
      return { ...ret, result: false, comment: `Failed to create tablespace ${name}` };
    }
    if (have.Location !== a.directory && !ctx.test)
      return {
        ...ret,
        result: false,
        comment: `Tablespace ${name} is not at the right location. This is\n            unfixable without dropping and recreating the tablespace.`,
      };
    const owner = a.owner === null || a.owner === '' || a.owner === false ? null : String(a.owner);
    const changes: Record<string, unknown> = {};
    if (owner && have.Owner !== owner) {
      if (ctx.test) Object.assign(ret, { result: null, comment: `Tablespace ${name} owner to be altered` });
      else if (await ctx.call('postgres.tablespace_alter', [name], { ...db, new_owner: owner })) {
        Object.assign(ret, { result: true, comment: `Tablespace ${name} owner changed` });
        changes.owner = owner;
      }
    }
    if (isMap(a.options)) {
      for (const [k, v] of Object.entries(a.options)) {
        if ((have.Opts ?? '').includes(`${k}=${pyStr(v)}`)) continue;
        if (ctx.test) {
          Object.assign(ret, {
            result: null,
            comment: `Tablespace ${name} options to be\n                        altered`,
          });
          break;
        }
        if (await ctx.call('postgres.tablespace_alter', [name], { ...db, set_option: { [k]: v } })) {
          Object.assign(ret, { result: true, comment: `Tablespace ${name} opts changed` });
          changes.options = { ...(changes.options as Record<string, unknown> | undefined), [k]: v };
        }
      }
    }
    if (Object.keys(changes).length > 0) ret.changes = { [name]: changes };
    return ret;
  },
});

const absent = pgAbsentState('Tablespace', 'postgres.tablespace_exists', 'postgres.tablespace_remove');

export default defineStateModule({
  name: 'postgres_tablespace',
  doc: 'Management of PostgreSQL tablespaces.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
