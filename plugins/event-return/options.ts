/**
 * Salt's `event_return` options, declared by the event-return plugin rather than the kernel's
 * schema.
 */
import {
  defineOptions,
  enumOption,
  intOption,
  type OptionsInput,
  stringListOption,
  stringOrListOption,
} from '../../kernel/index.js';

export const eventReturnOptions = defineOptions('master', {
  event_return: stringOrListOption('Returners that receive every event on the bus.'),
  event_return_queue: intOption(0, 'Events queued before they are sent to event_return.', { min: 0 }),
  event_return_whitelist: stringListOption('Only these event tags go to event_return.', 'list of tag globs'),
  event_return_blacklist: stringListOption('These event tags never go to event_return.', 'list of tag globs'),
  event_match_type: enumOption(
    ['startswith', 'endswith', 'find', 'regex', 'fnmatch'],
    'startswith',
    'How event tags are matched.',
  ),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof eventReturnOptions> {}
}
