/**
 * The peer plugin (Salt's peer publish, master side): the request commands a minion's `publish`
 * module sends (`minion_pub`, `pub_ret`, `minion_publish`, `minion_runner`, as Salt's
 * `AESFuncs` names them), allowed by the master's `peer` and `peer_run` options. On worker
 * threads; each command's code loads on its first use.
 */
import { type CommandContext, defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { peerOptions } from './options.js';

type Handler = (load: Record<string, unknown>, ctx: CommandContext) => Promise<unknown>;

const publishing = () => import('./peer-publish.js');

const COMMANDS: ReadonlyArray<readonly [string, Handler]> = [
  ['minion_pub', async (load, ctx) => (await publishing()).handleMinionPub(load, ctx)],
  ['pub_ret', async (load, ctx) => (await publishing()).handlePubRet(load, ctx)],
  ['minion_publish', async (load, ctx) => (await publishing()).handleMinionPublish(load, ctx)],
  ['minion_runner', async (load, ctx) => (await import('./peer-runner.js')).handleMinionRunner(load, ctx)],
];

export function peerPlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:peer',
    daemons: ['master'],
    options: peerOptions,
    apply(api) {
      for (const [cmd, handle] of COMMANDS)
        api.commands.register(defineCommand({ cmd, enc: 'aes', lane: 'worker', handle }));
    },
  });
}
