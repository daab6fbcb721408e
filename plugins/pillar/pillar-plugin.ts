/**
 * The pillar plugin: answers a minion's `_pillar` (Salt's `AESFuncs._pillar`) privately, with
 * Salt's `send_private`, and keeps the grains it reports in the minion data cache for
 * targeting (minion-data.ts). On a worker thread: the private reply costs RSA work.
 */
import { defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { handlePillar } from './minion-data.js';

export function pillarPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:pillar',
    daemons: ['master'],
    apply(api) {
      api.commands.register(
        defineCommand({
          cmd: '_pillar',
          enc: 'aes',
          lane: 'worker',
          reply: 'private',
          handle: (load, ctx) => handlePillar(load, ctx),
        }),
      );
    },
  });
}
