/** The sdb option: `sdb_dirs` (Salt's loader reads `<kind>_dirs` for every kind). */
import { defineOptions, type OptionsInput, stringListOption } from '../../kernel/index.js';

export const sdbOptions = defineOptions(['master', 'minion'], {
  sdb_dirs: stringListOption(
    'Extra directories searched for sdb drivers (after `<extension_modules>/sdb`, before the `extensions` packages).',
    'list of paths',
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof sdbOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof sdbOptions> {}
}
