/**
 * The wheel plugin: the `wheel` clear command (Salt's `ClearFuncs.wheel`), which runs a wheel
 * function (keys, config; built-ins in functions/) on the request server's worker thread, and
 * the minions' `revoke_auth` request, the one key operation a minion may ask for.
 */
import { defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { revokeAuthCommand } from './revoke-auth.js';
import { handleWheel } from './wheel-command.js';
// declares `wheel_dirs`, which the runner loader reads, before the master reads its config
import './options.js';

export function wheelPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:wheel',
    daemons: ['master'],
    apply(api) {
      api.commands.register(
        defineCommand({ cmd: 'wheel', enc: 'clear', lane: 'worker', handle: handleWheel }),
      );
      api.commands.register(revokeAuthCommand);
    },
  });
}
