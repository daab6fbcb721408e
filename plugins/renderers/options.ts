/**
 * The renderers' options (Salt's `renderer`, `gpg_keydir`, `gpg_decrypt_must_succeed`,
 * `decrypt_pillar_renderers`),
 * declared by the renderers plugin; the pillar reads `renderer` as its default pipeline and
 * the gpg renderer the other two (gpg-renderer.ts).
 */
import { z } from 'zod';
import {
  boolOption,
  collectionOption,
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
  decrypt_pillar_renderers: collectionOption(
    z.union([z.string(), z.array(z.string())]).transform((v) => (typeof v === 'string' ? [v] : v)),
    ['gpg'],
    'The renderers a `pillar_enc` argument may name to decrypt a `pillar=` override.',
    'string | list of strings',
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
