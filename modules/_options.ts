/**
 * Options read by built-in execution modules that Salt names without a module prefix (a dotted
 * `module.option` needs no declaration): declared here so the loader knows them and
 * docs/config.md lists them.
 */
import { defineOptions, nullableStringOption, type OptionsInput } from '../kernel/index.js';

export const executionModuleOptions = defineOptions('minion', {
  venv_bin: nullableStringOption(
    "The program `virtualenv.create` makes environments with (a pillar `venv_bin` wins); null: `virtualenv` if installed, else Python's `venv`.",
  ),
});

declare module '../kernel/index.js' {
  interface MinionPluginOptions extends OptionsInput<typeof executionModuleOptions> {}
}
