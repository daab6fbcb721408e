/**
 * The runners plugin: the `runner` clear command (Salt's `ClearFuncs.runner`), which starts a
 * runner function (built-ins in functions/, extension folders, packages) in its own process,
 * the `runner` task.
 */
import { defineCommand, definePlugin, defineTask, type KernelPlugin } from '../../kernel/index.js';
import { handleRunner } from './runner-command.js';
import type { RunnerJob } from './runner-events.js';

export function runnersPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:runners',
    daemons: ['master'],
    apply(api) {
      api.commands.register(
        defineCommand({ cmd: 'runner', enc: 'clear', lane: 'worker', handle: handleRunner }),
      );
      // the runner machinery (loaders, the minion client) is loaded in the task's process only
      api.tasks.register(
        defineTask<RunnerJob>({
          name: 'runner',
          run: async (ctx, job) => (await import('./runner-task.js')).runJob(ctx, job),
        }),
      );
    },
  });
}
