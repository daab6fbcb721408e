/**
 * Salt's `alias` state module (`salt/states/alias.py`): mail aliases in the aliases file
 * (`/etc/aliases`, or the minion option `aliases.file`) through the `aliases` execution module:
 * `alias.present` (an alias pointing at a target, or a list of targets joined with ", ") and
 * `alias.absent`.
 */
import { pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

const present = defineState({
  args: (z) => z.object({ name: z.string(), target: z.union([z.string(), z.array(z.string())]) }),
  doc: 'Ensure the named alias is present with the given target (or targets): a different target is overwritten, a missing alias added.',
  async run(ctx, { name, target }): Promise<StateReturn> {
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    // Salt formats the target as Python would: a list shows as ['a', 'b']
    const shown = pyStr(target);
    if (await ctx.call('aliases.has_target', [name, target])) {
      return { ...ret, result: true, comment: `Alias ${name} already present` };
    }
    if (ctx.test) return { ...ret, result: null, comment: `Alias ${name} -> ${shown} is set to be added` };
    if (await ctx.call('aliases.set_target', [name, target])) {
      return {
        ...ret,
        changes: { alias: name },
        result: true,
        comment: `Set email alias ${name} -> ${shown}`,
      };
    }
    return { ...ret, comment: `Failed to set alias ${name} -> ${shown}` };
  },
});

const absent = defineState({
  args: (z) => z.object({ name: z.string() }),
  doc: 'Ensure the named alias is absent from the aliases file.',
  async run(ctx, { name }): Promise<StateReturn> {
    const ret: StateReturn = { name, changes: {}, result: false, comment: '' };
    if (!(await ctx.call('aliases.get_target', [name]))) {
      return { ...ret, result: true, comment: `Alias ${name} already absent` };
    }
    if (ctx.test) return { ...ret, result: null, comment: `Alias ${name} is set to be removed` };
    if (await ctx.call('aliases.rm_alias', [name])) {
      return { ...ret, changes: { alias: name }, result: true, comment: `Removed alias ${name}` };
    }
    return { ...ret, comment: `Failed to remove alias ${name}` };
  },
});

export default defineStateModule({
  name: 'alias',
  doc: 'Mail aliases in the aliases file (`aliases.file`, default /etc/aliases).',
  functions: { present, absent },
});
