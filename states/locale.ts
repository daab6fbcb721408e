/**
 * Salt's `locale` state module (`salt/states/locale.py`): `locale.system` sets the system
 * locale, `locale.present` generates a locale that is not compiled yet.
 */
import { SaltError } from '../kernel/index.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';

export default defineStateModule({
  name: 'locale',
  doc: 'Management of languages/locales (locale.system, locale.present).',
  functions: {
    system: defineState({
      args: (z) => z.object({ name: z.string() }),
      doc: 'Set the locale for the system.',
      async run(ctx, { name }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
        try {
          if ((await ctx.call('locale.get_locale', [])) === name)
            return { ...ret, result: true, comment: `System locale ${name} already set` };
          if (ctx.test) return { ...ret, comment: `System locale ${name} needs to be set` };
          if (await ctx.call('locale.set_locale', [name]))
            return { ...ret, changes: { locale: name }, result: true, comment: `Set system locale ${name}` };
          return { ...ret, result: false, comment: `Failed to set system locale to ${name}` };
        } catch (err) {
          if (!(err instanceof SaltError) || err.code !== 'SALT_ERR_EXEC_COMMAND') throw err;
          return { ...ret, result: false, comment: `Failed to set system locale: ${err.message}` };
        }
      },
    }),
    present: defineState({
      args: (z) => z.object({ name: z.string() }),
      doc: 'Generate a locale if it is not present.',
      async run(ctx, { name }): Promise<StateReturn> {
        const ret: StateReturn = { name, changes: {}, result: null, comment: '' };
        if (await ctx.call('locale.avail', [name]))
          return { ...ret, result: true, comment: `Locale ${name} is already present` };
        if (ctx.test) return { ...ret, comment: `Locale ${name} needs to be generated` };
        if (await ctx.call('locale.gen_locale', [name]))
          return { ...ret, changes: { locale: name }, result: true, comment: `Generated locale ${name}` };
        return { ...ret, result: false, comment: `Failed to generate locale ${name}` };
      },
    }),
  },
});
