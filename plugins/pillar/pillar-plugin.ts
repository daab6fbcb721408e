/**
 * The pillar plugin: answers a minion's `_pillar` (Salt's `AESFuncs._pillar`) privately, with
 * Salt's `send_private`, after compiling its pillar from `pillar_roots` and the external pillars
 * (the `pillar.ext` kind: the built-ins here, and any a plugin registers). On a worker thread:
 * rendering and the private reply's RSA work stay off the router thread.
 */
import { defineCommand, defineDaemonProcess, definePlugin, type KernelPlugin } from '../../kernel/index.js';
import { renderersFrom, type SaltFunctions } from '../renderers/index.js';
import type { CompileEnv } from './compile.js';
import { BUILTIN_EXT_PILLARS } from './ext/builtins.js';
import type { ExtPillarDef } from './ext-kind.js';
import { gitPillarOptions } from './git-pillar/options.js';
import { hasGitPillar, updateGitPillar } from './git-pillar/update.js';
import { handlePillar } from './minion-data.js';
import { pillarOptions } from './options.js';
import { PillarCache } from './pillar-cache.js';
import type { PillarLog } from './pillar-log.js';

/** Options of {@link pillarPlugin}. */
export interface PillarPluginOptions {
  /** The `salt['mod.fn']` functions pillar templates may call, made from the master config (default: none). */
  functions?: (opts: Readonly<Record<string, unknown>>, log: PillarLog) => SaltFunctions;
}

export function pillarPlugin(options: PillarPluginOptions = {}): KernelPlugin {
  return definePlugin({
    name: 'tsalt:pillar',
    daemons: ['master'],
    apply(api) {
      for (const def of BUILTIN_EXT_PILLARS) api.kinds.register('pillar.ext', def);
      let env: CompileEnv | undefined;
      const config = api.config;
      const cache =
        config.pillar_cache === true ? new PillarCache(Number(config.pillar_cache_ttl ?? 3600)) : undefined;
      if (hasGitPillar(config as unknown as Record<string, unknown>)) {
        api.processes.register(gitPillarUpdateProcess());
      }
      api.commands.register(
        defineCommand({
          cmd: '_pillar',
          enc: 'aes',
          lane: 'worker',
          reply: 'private',
          handle: (load, ctx) =>
            handlePillar(load, ctx, {
              cache,
              env: (c) => {
                // the kinds are complete once every plugin is applied: read them on first use
                env ??= {
                  options: pillarOptions(c.config as unknown as Record<string, unknown>),
                  extPillars: new Map<string, ExtPillarDef>(
                    api.kinds.all('pillar.ext').map((d) => [d.name, d]),
                  ),
                  renderers: renderersFrom(api.kinds),
                  salt: options.functions?.(c.config as unknown as Record<string, unknown>, c.log),
                  log: c.log,
                };
                return env;
              },
            }),
        }),
      );
    },
  });
}

/**
 * Salt's git_pillar upkeep in the maintenance loop: fetches every git_pillar remote at start
 * and every `git_pillar_update_interval` seconds, so compiles only check out what is fetched
 * (a compile fetches a remote itself only when it lacks the branch asked for).
 */
function gitPillarUpdateProcess() {
  return defineDaemonProcess({
    name: 'git-pillar-update',
    async start(ctx) {
      const interval = gitPillarOptions(ctx.config).git_pillar_update_interval;
      // a malformed remote is logged (and reported in the minions' `_errors`); the process lives on
      const update = () =>
        updateGitPillar(ctx.config, ctx.log).catch((err: Error & { code?: string }) =>
          ctx.log.error({ code: err.code }, err.message),
        );
      let running: Promise<unknown> = update();
      const timer = setInterval(() => {
        running = running.then(update);
      }, interval * 1000);
      return async () => {
        clearInterval(timer);
        await running.catch(() => undefined);
      };
    },
  });
}
