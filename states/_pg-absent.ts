/**
 * The `absent` state Salt's `postgres_database` and `postgres_tablespace` share: if the
 * object exists, remove it ("<Kind> X has been removed"), else say it is not there. As in
 * Salt, a removal that fails falls through to "is not present".
 */
import { defineState, type StateReturn } from '../plugins/states/index.js';
import { dbArgs, pgName, pgStateConn, pgStateConnUserFirst } from './_pg-state-args.js';

export function pgAbsentState(kind: 'Database' | 'Tablespace', exists: string, remove: string) {
  return defineState({
    // Salt's tablespace.absent takes db_user third, its database.absent last
    args: (z) =>
      z.object({ name: pgName(z), ...(kind === 'Tablespace' ? pgStateConnUserFirst(z) : pgStateConn(z)) }),
    doc: `Ensure that the named ${kind.toLowerCase()} is absent.`,
    async run(ctx, a): Promise<StateReturn> {
      const { name } = a;
      const ret: StateReturn = { name, changes: {}, result: true, comment: '' };
      const db = dbArgs(a);
      if (await ctx.call(exists, [name], db)) {
        if (ctx.test) return { ...ret, result: null, comment: `${kind} ${name} is set to be removed` };
        if (await ctx.call(remove, [name], db))
          return { ...ret, comment: `${kind} ${name} has been removed`, changes: { [name]: 'Absent' } };
      }
      return { ...ret, comment: `${kind} ${name} is not present, so it cannot be removed` };
    },
  });
}
