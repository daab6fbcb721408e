/**
 * The scheduler's options beside the kernel's `schedule:` mapping: Salt's `schedule_returner`
 * (returners every scheduled job's return also goes to) and `whens` (named times a job's `when`
 * may use; Salt reads them from the pillar and the grains, tsalt from the config too).
 */
import { defineOptions, mappingOption, type OptionsInput, stringOrListOption } from '../../kernel/index.js';

export const scheduleOptions = defineOptions(['master', 'minion'], {
  schedule_returner: stringOrListOption('Returners that every scheduled job sends its return to.'),
  whens: mappingOption('Named times (`christmas: "12/25/2026 9:00am"`) a scheduled job\'s `when` may name.'),
});

declare module '../../kernel/config/option-set.js' {
  interface MasterPluginOptions extends OptionsInput<typeof scheduleOptions> {}
}
