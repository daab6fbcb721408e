/**
 * Salt's `keyboard` state module (`salt/states/keyboard.py`): `keyboard.system` and
 * `keyboard.xorg` make the console keymap or the X layout the named one.
 */
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

/** One state: read the layout with `get`, set it with `set` unless it is already `name`. */
function layoutState(what: 'System' | 'XOrg', get: string, set: string) {
  const lower = what === 'System' ? 'system' : 'XOrg';
  return defineState({
    args: (z) => z.object({ name: z.string() }),
    doc: `Set the keyboard layout for ${lower === 'system' ? 'the system' : 'XOrg'}.

name: the keyboard layout to use.`,
    async run(ctx, { name }): Promise<StateReturn> {
      const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
      if ((await ctx.call(get, [])) === name)
        return { ...ret, result: true, comment: `${what} layout ${name} already set` };
      if (ctx.test) return { ...ret, comment: `${what} layout ${name} needs to be set` };
      if (await ctx.call(set, [name]))
        return {
          ...ret,
          changes: { layout: name },
          result: true,
          comment: `Set ${lower} keyboard layout ${name}`,
        };
      return { ...ret, result: false, comment: `Failed to set ${lower} keyboard layout` };
    },
  });
}

export default defineStateModule({
  name: 'keyboard',
  doc: 'Management of keyboard layouts (keyboard.system, keyboard.xorg).',
  functions: {
    system: layoutState('System', 'keyboard.get_sys', 'keyboard.set_sys'),
    xorg: layoutState('XOrg', 'keyboard.get_x', 'keyboard.set_x'),
  },
});
