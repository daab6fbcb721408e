/**
 * The runners plugin: the `runner` clear command (Salt's `ClearFuncs.runner`), which starts a
 * runner function (built-ins in functions/, extension folders, packages) in its own process.
 */
import { defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { handleRunner } from './runner-command.js';

export function runnersPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:runners',
    daemons: ['master'],
    apply(api) {
      api.commands.register(
        defineCommand({ cmd: 'runner', enc: 'clear', lane: 'worker', handle: handleRunner }),
      );
    },
  });
}
