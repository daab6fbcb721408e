/**
 * The state system's options (Salt's `failhard`, `test`, `state_*`, `states_dirs`, ...),
 * declared by the states plugin: the minion reads them when it compiles and runs states, the
 * master's CLI when it prints a highstate (`state_output`, `state_verbose`).
 */
import { z } from 'zod';
import {
  boolOption,
  collectionOption,
  defineOptions,
  enumOption,
  type OptionsInput,
  stringListOption,
  stringOption,
  stringOrListOption,
} from '../../kernel/index.js';

/** Options the minion and the master both read. */
export const statesOptions = defineOptions(['master', 'minion'], {
  failhard: boolOption(
    false,
    'Stop a state run at the first failed state (every state, as its own `failhard: True`).',
  ),
  state_verbose: boolOption(true, 'Show states that succeeded without changes in the highstate output.'),
  state_output: enumOption(
    ['full', 'terse', 'mixed', 'changes', 'full_id', 'terse_id', 'mixed_id', 'changes_id', 'filter'],
    'full',
    'How the highstate outputter prints each state (`full`, `terse`, `mixed`, `changes`, and their `_id` forms).',
  ),
  state_output_diff: boolOption(false, 'Leave out the changes of succeeded states in the highstate output.'),
  state_output_profile: boolOption(true, "Show each state's duration in the highstate output."),
  state_tabular: collectionOption(
    z.union([z.boolean(), z.string()], { error: 'expected a boolean or a line format' }),
    false,
    'Print each state of the highstate output on one line of a table; a string is the line format.',
    'boolean | string',
  ),
  state_output_pct: boolOption(
    false,
    'Show the share of succeeded and failed states in the highstate summary.',
  ),
  state_compress_ids: boolOption(
    false,
    'Print the states of one id, function and result in the highstate output as one line with a count.',
  ),
  state_output_exclude: stringOrListOption(
    'Results `state_output: filter` leaves out (`True`, `False`, `None`, `changed`).',
  ),
  state_output_terse: stringOrListOption('Results `state_output: filter` prints tersely.'),
  state_aggregate: boolOption(
    false,
    'Aggregate states of modules that support it (`pkg.installed`) into one call.',
  ),
  state_events: boolOption(
    false,
    'Fire an event on the bus as each state finishes (`salt/job/<jid>/prog/<id>/<n>`).',
  ),
  state_auto_order: boolOption(
    true,
    'Run states in the order they are defined when no requisite orders them.',
  ),
});

/** Options only the minion reads. */
export const minionStatesOptions = defineOptions('minion', {
  test: boolOption(false, 'Run every state with `test=True` unless a call passes `test=False`.'),
  states_dirs: stringListOption('Extra directories searched for state modules.', 'list of paths'),
  sls_list: stringListOption('The SLS names `startup_states: sls` applies.', 'list of names'),
  top_file: stringOption('', 'The top file `startup_states: top` applies.'),
  state_queue: boolOption(false, 'Queue a state run behind the one running instead of refusing it.'),
  lock_saltenv: boolOption(false, 'Refuse a `saltenv` argument that differs from the configured `saltenv`.'),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof statesOptions> {}
  interface MinionPluginOptions
    extends OptionsInput<typeof statesOptions>,
      OptionsInput<typeof minionStatesOptions> {}
}
