/**
 * The mine plugin (Salt's mine, master side): the request commands a minion's `mine` module
 * sends (`_mine`, `_mine_get`, `_mine_delete`, `_mine_flush`, as Salt's `AESFuncs` names them),
 * the data kept in the minion data cache (`<cachedir>/minions/<id>/mine.p`), and the `mine_get`
 * ACL. On worker threads: they read and write files.
 */
import { type CommandContext, defineCommand, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import type { TargetingConfig } from '../../kernel/services.js';
import { MINE_ERR_ACL_PATTERN, MINE_ERR_LOAD } from './errors.js';
import { handleMine, handleMineDelete, handleMineFlush } from './mine-commands.js';
import { gatherMine, type MineGetEnv } from './mine-get.js';
import { requestedFunctions } from './mine-shape.js';
import { mineMasterOptions } from './options.js';

/** What reading the mine needs from a master config (for the command and the runner alike). */
export function mineGetEnv(
  config: TargetingConfig & { readonly extra: Readonly<Record<string, unknown>> },
  warn: (message: string, code: string) => void,
): MineGetEnv {
  return {
    targeting: config,
    acl: mineMasterOptions.read(config).mine_get,
    onBadPattern: (pattern) => {
      const err = new MINE_ERR_ACL_PATTERN(pattern);
      warn(err.message, err.code);
    },
  };
}

async function handleMineGet(load: Record<string, unknown>, ctx: CommandContext): Promise<unknown> {
  if (!('tgt' in load && 'fun' in load) || !requestedFunctions(load.fun)) {
    const err = new MINE_ERR_LOAD('_mine_get', 'it needs "tgt" and "fun" (a string or a list of strings)');
    ctx.log.warn({ id: ctx.id, code: err.code }, err.message);
    return {};
  }
  const env = mineGetEnv(ctx.config, (message, code) => ctx.log.warn({ code }, message));
  try {
    return await gatherMine(env, { ...load, id: ctx.id });
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'SALT_ERR_TARGET_INVALID') throw err;
    // Salt's answer when a master function raises: an empty string
    ctx.log.warn({ id: ctx.id, code: 'SALT_ERR_TARGET_INVALID' }, (err as Error).message);
    return '';
  }
}

export function minePlugin(): KernelPlugin {
  return definePlugin({
    name: 'tsalt:mine',
    daemons: ['master'],
    options: mineMasterOptions,
    apply(api) {
      const commands = [
        ['_mine', handleMine],
        ['_mine_get', handleMineGet],
        ['_mine_delete', handleMineDelete],
        ['_mine_flush', handleMineFlush],
      ] as const;
      for (const [cmd, handle] of commands)
        api.commands.register(defineCommand({ cmd, enc: 'aes', lane: 'worker', handle }));
    },
  });
}
