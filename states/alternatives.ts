/**
 * Salt's `alternatives` state module (salt/states/alternatives.py) over the `alternatives`
 * execution module: `alternatives.install`, `remove`, `auto` and `set`.
 */
import { pySplitlines, pyStr } from '../kernel/util.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'alternatives',
  doc: 'Manage the alternatives system: register, remove and choose alternatives.',
  functions: {
    install: defineState({
      args: (z) => z.object({ name: z.string(), link: z.string(), path: z.string(), priority: z.unknown() }),
      doc: 'Ensure a path is registered as an alternative of a group (link: the master link; priority: a number).',
      async run(ctx, { name, link, path, priority }): Promise<StateReturn> {
        const ret: StateReturn = {
          name,
          link,
          path,
          priority,
          result: true,
          changes: {},
          comment: '',
        } as StateReturn;
        const prio = pyStr(priority);
        if (await ctx.call('alternatives.check_exists', [name, path])) {
          ret.comment = `Alternative ${path} for ${name} is already registered`;
          return ret;
        }
        if (ctx.test) {
          return {
            ...ret,
            result: null,
            comment: `Alternative will be set for ${name} to ${path} with priority ${prio}`,
          };
        }
        const out = await ctx.call('alternatives.install', [name, link, path, priority]);
        if (!(await ctx.call('alternatives.check_exists', [name, path]))) {
          return { ...ret, result: false, comment: `Alternative for ${name} not installed: ${pyStr(out)}` };
        }
        ret.comment = (await ctx.call('alternatives.check_installed', [name, path]))
          ? `Alternative for ${name} set to path ${path} with priority ${prio}`
          : `Alternative ${path} for ${name} registered with priority ${prio} and not set to default`;
        ret.changes = { name, link, path, priority };
        return ret;
      },
    }),
    remove: defineState({
      args: (z) => z.object({ name: z.string(), path: z.string() }),
      doc: 'Ensure a path is not registered as an alternative of a group.',
      async run(ctx, { name, path }): Promise<StateReturn> {
        const ret = { name, path, result: true, changes: {}, comment: '' } as StateReturn;
        if (await ctx.call('alternatives.check_exists', [name, path])) {
          if (ctx.test) return { ...ret, result: null, comment: `Alternative for ${name} will be removed` };
          await ctx.call('alternatives.remove', [name, path]);
          const now = await ctx.call('alternatives.show_current', [name]);
          if (now) {
            return {
              ...ret,
              comment: `Alternative for ${name} removed. Falling back to path ${pyStr(now)}`,
              changes: { path: now },
            };
          }
          return { ...ret, comment: `Alternative for ${name} removed` };
        }
        const now = await ctx.call('alternatives.show_current', [name]);
        if (now)
          return { ...ret, comment: `Alternative for ${name} is set to it's default path ${pyStr(now)}` };
        return { ...ret, result: false, comment: `Alternative for ${name} doesn't exist` };
      },
    }),
    auto: defineState({
      args: (z) => z.object({ name: z.string() }),
      doc: 'Ensure a group is in auto mode.',
      async run(ctx, { name }): Promise<StateReturn> {
        const ret: StateReturn = { name, result: true, comment: '', changes: {} };
        const display = pyStr(await ctx.call('alternatives.display', [name]));
        if ((pySplitlines(display)[0] ?? '').endsWith(' auto mode')) {
          return { ...ret, comment: `${name} already in auto mode` };
        }
        if (ctx.test) return { ...ret, result: null, comment: `${name} will be put in auto mode` };
        ret.changes = { result: await ctx.call('alternatives.auto', [name]) };
        return ret;
      },
    }),
    set: defineState({
      args: (z) => z.object({ name: z.string(), path: z.string() }),
      doc: 'Ensure a group points at a registered path (manual mode).',
      async run(ctx, { name, path }): Promise<StateReturn> {
        const ret = { name, path, result: true, changes: {}, comment: '' } as StateReturn;
        if ((await ctx.call('alternatives.show_current', [name])) === path) {
          return { ...ret, comment: `Alternative for ${name} already set to ${path}` };
        }
        const display = pyStr(await ctx.call('alternatives.display', [name]));
        if (!pySplitlines(display).some((l) => l.startsWith(path))) {
          return { ...ret, result: false, comment: `Alternative ${path} for ${name} doesn't exist` };
        }
        if (ctx.test)
          return { ...ret, result: null, comment: `Alternative for ${name} will be set to path ${path}` };
        await ctx.call('alternatives.set', [name, path]);
        const now = await ctx.call('alternatives.show_current', [name]);
        if (now === path)
          return { ...ret, comment: `Alternative for ${name} set to path ${path}`, changes: { path } };
        return { ...ret, comment: `Alternative for ${name} not updated` };
      },
    }),
  },
});
