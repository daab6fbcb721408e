/** The matchers' minion option: `matchers_dirs` (Salt's loader reads `<kind>_dirs` for every kind). */
import { defineOptions, type OptionsInput, stringListOption } from '../../kernel/index.js';

export const matchersOptions = defineOptions('minion', {
  matchers_dirs: stringListOption('Extra directories searched for matchers.', 'list of paths'),
});

declare module '../../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof matchersOptions> {}
}
