/**
 * The mine's options, declared by the mine plugin (not the kernel's schema): the master's
 * `mine_get` ACL and `enforce_mine_cache` (Salt's master options), and the minion's
 * `mine_functions`, `mine_interval`, `mine_enabled` and `mine_return_job` (Salt's minion options).
 */
import { z } from 'zod';
import {
  boolOption,
  collectionOption,
  defineOptions,
  intOption,
  type OptionsInput,
} from '../../kernel/index.js';

/** The master's options. */
export const mineMasterOptions = defineOptions('master', {
  mine_get: collectionOption(
    z
      .record(z.string(), z.array(z.string(), { error: 'expected a list of function patterns' }), {
        error: 'expected a mapping of minion-id pattern to a list of function patterns',
      })
      .nullable(),
    null,
    "Which minions may read which mine functions: minion-id regex → list of function regexes (Python's `re.match`, anchored at the start). Unset: every minion reads every function; set: what no entry allows is refused.",
    'mapping of pattern → list of patterns | null',
  ),
  enforce_mine_cache: boolOption(
    false,
    'Keep mine data in the minion data cache even with `minion_data_cache: False`.',
  ),
});

/** The minion's options. */
export const mineMinionOptions = defineOptions('minion', {
  mine_functions: collectionOption(
    z.record(z.string(), z.unknown(), { error: 'expected a mapping of mine name to its arguments' }),
    {},
    'The functions `mine.update` runs and sends to the master: `name: [args]`, or `alias: [mine_function: fun, args...]`; merged with `mine_functions` in the pillar.',
    'mapping of name → list of arguments',
  ),
  mine_enabled: boolOption(
    true,
    'Run `mine.update` when the minion starts and every `mine_interval` minutes.',
  ),
  mine_interval: intOption(60, 'Minutes between two `mine.update` runs (0: only the one at start).', {
    min: 0,
  }),
  mine_return_job: boolOption(
    false,
    "Send the periodic `mine.update`'s return to the master as a job return (`schedule: __mine_interval`).",
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof mineMasterOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof mineMinionOptions> {}
}
