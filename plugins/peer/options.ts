/**
 * The peer plugin's options (Salt's master options `peer` and `peer_run`): which minions may
 * publish which functions to other minions, and which runners they may run on the master.
 * Each maps a minion-id regex (Python `re.match`, anchored at the start) to a list of function
 * regexes (or Salt's eauth-style `{target: [functions]}` entries for `peer`). Unset: nothing
 * is allowed, as in Salt.
 */
import { defineOptions, mappingOption, type OptionsInput } from '../../kernel/index.js';

export const peerOptions = defineOptions('master', {
  peer: mappingOption(
    'Minion-to-minion publish (`publish.publish`): minion-id regex → list of function regexes the minions it matches may publish.',
  ),
  peer_run: mappingOption(
    'Runners minions may run on the master (`publish.runner`): minion-id regex → list of runner-function regexes.',
  ),
});

declare module '../../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof peerOptions> {}
}
