/**
 * Answers for the request commands a stock Salt minion may send to subsystems no plugin
 * provides yet (the mine, master tops, ...): Salt's answer when the subsystem has nothing,
 * so the minion carries on. Applied after every other plugin (a kernel fallback), it registers
 * only the commands no plugin took: a mine plugin registers `_mine_get` and this one leaves it.
 */
import { defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';

/** Each command and the answer Salt gives when its subsystem holds nothing. */
const EMPTY_ANSWERS: Readonly<Record<string, unknown>> = {
  _mine: true,
  _mine_delete: true,
  _mine_flush: true,
  _mine_get: {},
  _master_tops: {},
  _master_opts: {},
  _file_list_emptydirs: [],
  _dir_list: [],
  _symlink_list: {},
  _file_hash_and_stat: '',
  _file_find: {},
  verify_minion: true,
  revoke_auth: false,
  _syndic_return: false,
};

export function commandFallbacksPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:command-fallbacks',
    daemons: ['master'],
    apply(api) {
      for (const [cmd, answer] of Object.entries(EMPTY_ANSWERS)) {
        if (!api.commands.has(cmd))
          api.commands.register(defineCommand({ cmd, enc: 'aes', lane: 'light', handle: () => answer }));
      }
    },
  });
}
