/**
 * The reactor's options (Salt's `reactor`, plus tsalt's TypeScript `reactions` and loop guard),
 * declared by the reactor plugin rather than the kernel's schema.
 */
import { z } from 'zod';
import { collectionOption, defineOptions, intOption, type OptionsInput } from '../../kernel/index.js';
import { isReactionDef, type ReactionDef } from './define.js';

const reactorEntries = z.array(
  z.record(
    z.string(),
    z.union([z.string(), z.array(z.string())], { error: 'expected a reactor file or a list of files' }),
    { error: 'expected a mapping of event tag to reactor file(s)' },
  ),
  { error: 'expected a list of `tag: [files]` mappings' },
);

export const reactorOptions = defineOptions('master', {
  reactor: collectionOption(
    reactorEntries,
    [],
    'Event tags mapped to reactor files.',
    'list of `tag: [files]`',
  ),
  reactions: collectionOption(
    z.array(
      z.custom<ReactionDef>(isReactionDef, {
        error: 'expected a defineReaction({ name, tags, react }) value',
      }),
      { error: 'expected a list of reactions' },
    ),
    [],
    'TypeScript reactions (defineReaction values) in a code config, run by the reactor next to the `reactor:` files.',
    'list of reactions',
  ),
  reactor_loop_burst: intOption(
    100,
    'Events one reactor glob may match per second before the reactor pauses it as a loop (0: never).',
    { min: 0 },
  ),
  reactor_loop_pause: intOption(60, 'Seconds a reactor glob stays paused after a loop was detected.', {
    min: 1,
  }),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof reactorOptions> {}
}
