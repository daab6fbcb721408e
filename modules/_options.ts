/**
 * Options read by built-in execution modules that have no option file of their own: declared
 * here so the loader knows them (one without a module prefix would be warned about) and
 * docs/config.md lists them.
 */
import { defineOptions, nullableStringOption, type OptionsInput } from '../kernel/index.js';

export const executionModuleOptions = defineOptions('minion', {
  venv_bin: nullableStringOption(
    "The program `virtualenv.create` makes environments with (a pillar `venv_bin` wins); null: `virtualenv` if installed, else Python's `venv`.",
  ),
  'rbenv.root': nullableStringOption(
    "Where rbenv lives, for the `gem` module's `ruby` argument through rbenv; null: `/usr/local/rbenv` for root, else `~<runas>/.rbenv`.",
  ),
  'rvm.runas': nullableStringOption(
    'The user whose RVM the `gem` module uses when a call gives no `runas` (`~<user>/.rvm/bin/rvm`, else `/usr/local/rvm/bin/rvm`); null: the system-wide RVM.',
  ),
});

declare module '../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof executionModuleOptions> {}
}
