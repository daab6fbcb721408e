/**
 * Salt's `postgres_extension` state module (`salt/states/postgres_extension.py`): an
 * extension installed (moved to `schema`, upgraded to `ext_version`) or absent, through the
 * `postgres` execution module.
 */
import { INSTALLED, NOT_INSTALLED, TO_MOVE, TO_UPGRADE } from '../modules/_pg-ext.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import { dbArgs, pgName, pgPresentStart, pgStateConnUserFirst, psqlPresent } from './_pg-state-args.js';

const present = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      if_not_exists: z.unknown().default(null),
      schema: z.unknown().default(null),
      ext_version: z.unknown().default(null),
      from_version: z.unknown().default(null),
      ...pgStateConnUserFirst(z),
    }),
  doc: `Ensure that the named extension is present.

schema: the schema to install it in (or move it to); ext_version: the version to install or upgrade to; from_version: the version to upgrade from.
user: the system user to run psql as; db_user, db_password, db_host, db_port, maintenance_db: the connection (the extension goes into maintenance_db).`,
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const { ret, db } = pgPresentStart(name, 'Extension', a);
    const md = (await ctx.call('postgres.create_metadata', [name], {
      schema: a.schema,
      ext_version: a.ext_version,
      ...db,
    })) as string[];
    const install = md.includes(NOT_INSTALLED);
    const upgrade = md.includes(INSTALLED) && (md.includes(TO_MOVE) || md.includes(TO_UPGRADE));
    if (!install && !upgrade) return ret;
    const mode = install ? 'install' : 'upgrade';
    if (ctx.test)
      return {
        ...ret,
        result: null,
        comment: `Extension ${name} is set to be ${mode}ed`.replace('eed', 'ed'),
      };
    const done = await ctx.call('postgres.create_extension', [], {
      name,
      if_not_exists: a.if_not_exists,
      schema: a.schema,
      ext_version: a.ext_version,
      from_version: a.from_version,
      ...db,
    });
    if (!done) return { ...ret, result: false, comment: `Failed to ${mode} extension ${name}` };
    const suffix = mode.endsWith('e') ? 'd' : 'ed';
    const cap = `${mode[0]?.toUpperCase()}${mode.slice(1)}`;
    return {
      ...ret,
      comment: `The extension ${name} has been ${mode}${suffix}`,
      changes: { [name]: `${cap}${suffix}` },
    };
  },
});

const absent = defineState({
  args: (z) =>
    z.object({
      name: pgName(z),
      if_exists: z.unknown().default(null),
      restrict: z.unknown().default(null),
      cascade: z.unknown().default(null),
      ...pgStateConnUserFirst(z),
    }),
  doc: 'Ensure that the named extension is absent (cascade, the default, drops what depends on it too).',
  async run(ctx, a): Promise<StateReturn> {
    const { name } = a;
    const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
    const db = dbArgs(a);
    if (!(await ctx.call('postgres.is_installed_extension', [name], db)))
      return { ...ret, comment: `Extension ${name} is not present, so it cannot be removed` };
    if (ctx.test) return { ...ret, result: null, comment: `Extension ${name} is set to be removed` };
    const dropped = await ctx.call('postgres.drop_extension', [name], {
      if_exists: a.if_exists,
      restrict: a.restrict,
      cascade: a.cascade,
      ...db,
    });
    return dropped
      ? { ...ret, comment: `Extension ${name} has been removed`, changes: { [name]: 'Absent' } }
      : { ...ret, result: false, comment: `Extension ${name} failed to be removed` };
  },
});

export default defineStateModule({
  name: 'postgres_extension',
  doc: 'Management of PostgreSQL extensions.',
  virtual: (ctx) => psqlPresent(ctx.opts),
  functions: { present, absent },
});
