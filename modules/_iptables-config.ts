/**
 * The minion option Salt's `iptables` module reads (through `config.option`, so a grain or
 * pillar of the same name serves too): patterns of lines `iptables.save` leaves out of the file.
 */
import { defineOptions, type OptionsInput, stringListOption } from '../kernel/index.js';

export const iptablesModuleOptions = defineOptions('minion', {
  'iptables.save_filters': stringListOption(
    'Regular expressions: `iptables.save` (and `save:` of the iptables states) leaves out every line of `iptables-save` that one of them matches, e.g. `-j DOCKER` for rules another program manages; []: the whole output.',
  ),
});

declare module '../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof iptablesModuleOptions> {}
}
