/**
 * What a minion needs to run functions: the module loader over the configured folders and
 * the built-in modules, the grains (current at each job), and a logger.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../config/index.js';
import { createModuleLoader } from '../loader/index.js';
import { coreGrains } from './grains.js';
import { GrainsView, grainsFilePath } from './grains-file.js';
import { primaryMaster } from './master-address.js';
import type { RunEnv } from './run-function.js';

/** The compiled built-in modules folder (`dist/modules`). */
export const BUILTIN_MODULES_DIR = fileURLToPath(new URL('../../modules/', import.meta.url));

/**
 * The minion's grains as every job sees them: core grains computed once, the grains file
 * (which grains.setval writes) re-read whenever a stat shows it changed, the config's
 * `grains` on top.
 */
export function minionGrainsView(config: ResolvedMinionConfig, id: string, log: Logger): GrainsView {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  return new GrainsView({
    core: coreGrains(id, primaryMaster(config.master), {}),
    file: grainsFilePath(opts),
    configured: (config.grains ?? {}) as Record<string, unknown>,
    deep: opts.grains_deep_merge === true,
    onError: (message) => log.warn(message),
  });
}

export function createRunEnv(config: ResolvedMinionConfig, id: string, log: Logger): RunEnv {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const view = minionGrainsView(config, id, log);
  const loader = createModuleLoader({
    dirs: [join(config.extension_modules, 'modules'), ...config.module_dirs],
    builtinDirs: [BUILTIN_MODULES_DIR],
    packages: [...config.extensions],
    disabled: [...config.disable_modules],
    virtualContext: { opts, grains: view.current() },
    log,
  });
  return {
    loader,
    opts,
    get grains() {
      return view.current();
    },
    id,
    log,
  };
}
