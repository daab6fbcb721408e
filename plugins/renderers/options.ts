/**
 * The renderers' options (Salt's `renderer`, `gpg_keydir`, `gpg_decrypt_must_succeed`),
 * declared by the renderers plugin; the pillar reads `renderer` as its default pipeline and
 * the gpg renderer the other two (gpg-renderer.ts).
 */
import {
  boolOption,
  defineOptions,
  nullableStringOption,
  type OptionsInput,
  stringOption,
} from '../../kernel/index.js';

export const renderersOptions = defineOptions(['master', 'minion'], {
  renderer: stringOption(
    'jinja|yaml',
    "The render pipeline of SLS and pillar files that have no `#!` line (Salt's `renderer`).",
  ),
  gpg_keydir: nullableStringOption(
    'The gpg home of the `gpg` renderer (default: `gpgkeys` beside the config file).',
  ),
  gpg_decrypt_must_succeed: boolOption(
    false,
    'Fail a render whose PGP block the `gpg` renderer cannot decrypt.',
  ),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof renderersOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof renderersOptions> {}
}
