/**
 * Salt's `file.pruned` state (`salt/states/file.py` `pruned`): a folder removed when empty, with
 * `recurse` the empty folders under it too, through `file.rmdir`.
 */

import { isDir } from '../modules/_file-stat.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';
import { expandUser } from './_file-common.js';

export const pruned = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      recurse: z.boolean().default(false),
      ignore_errors: z.boolean().default(false),
      older_than: z.unknown().optional(),
    }),
  doc: 'Ensure that the named directory is absent. If it exists and is empty, it is removed.\n\nrecurse: remove the empty directories under it too.\nignore_errors: report success when some could not be removed (implies recurse).\nolder_than: only directories not modified for this many days.',
  async run(ctx, a): Promise<StateReturn> {
    const name = expandUser(a.name);
    const ret: StateReturn = { name, changes: {}, comment: '', result: true };
    const recurse = a.recurse || a.ignore_errors;
    if (!(await isDir(name))) return { ...ret, comment: `Directory ${name} is not present` };
    if (ctx.test) {
      return {
        ...ret,
        result: null,
        changes: { deleted: name },
        comment: `Directory ${name} is set for removal`,
      };
    }
    const res = (await ctx.call('file.rmdir', [name], {
      recurse,
      verbose: true,
      older_than: a.older_than ?? null,
    })) as { deleted: string[]; errors: unknown[]; result: boolean };
    const { result, ...rest } = res;
    if (result) {
      if (recurse && res.deleted.length > 0)
        return {
          ...ret,
          comment: `Recursively removed empty directories under ${name}`,
          changes: { deleted: [...res.deleted].sort() },
        };
      if (!recurse) return { ...ret, comment: `Removed directory ${name}`, changes: { deleted: name } };
      return ret;
    }
    if (a.ignore_errors && res.deleted.length > 0)
      return {
        ...ret,
        comment: `Recursively removed empty directories under ${name}`,
        changes: { deleted: [...res.deleted].sort() },
      };
    return { ...ret, result, changes: rest, comment: `Failed to remove directory ${name}` };
  },
});
