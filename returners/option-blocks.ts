/**
 * The built-in returners' option blocks as one map each (`postgres: {host: db1}`, which
 * docs/cluster.md and master.config.ts files use), declared so that a config holding one draws
 * no unknown-option warning. Each returner validates its block with its own schema when it is
 * loaded (kernel/jobs/returner-options.ts); Salt's flat `<returner>.<option>` keys win over it.
 */
import { defineOptions, mappingOption, type OptionsInput } from '../kernel/index.js';

export const returnerBlockOptions = defineOptions(['master', 'minion'], {
  postgres: mappingOption(
    'Options of the `postgres` returner as one map (`host`, `port`, `user`, `pass`, `db`, `sslmode`, ...); `postgres.<option>` keys win over it.',
  ),
  redis: mappingOption(
    'Options of the `redis` returner as one map (`host`, `port`, `db`, `password`, `unix_socket_path`, ...); `redis.<option>` keys win over it.',
  ),
});

declare module '../kernel/index.js' {
  interface MasterPluginOptions extends OptionsInput<typeof returnerBlockOptions> {}
  interface MinionPluginOptions extends OptionsInput<typeof returnerBlockOptions> {}
}
