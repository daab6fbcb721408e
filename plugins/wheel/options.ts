/** The wheel option: `wheel_dirs` (Salt's loader reads `<kind>_dirs` for every kind; kernel/runners/loader.ts). */
import { defineOptions, type OptionsInput, stringListOption } from '../../kernel/index.js';

export const wheelOptions = defineOptions('master', {
  wheel_dirs: stringListOption(
    'Extra directories searched for wheel modules (after `<extension_modules>/wheel`, before the `extensions` packages).',
    'list of paths',
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof wheelOptions> {}
}
