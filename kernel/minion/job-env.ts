/**
 * What a minion needs to run functions: the module loader over the configured folders and
 * the built-in modules, the grains, and a logger.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../config/index.js';
import { createModuleLoader } from '../loader/index.js';
import { coreGrains } from './grains.js';
import { primaryMaster } from './master-address.js';
import type { RunEnv } from './run-function.js';

/** The compiled built-in modules folder (`dist/modules`). */
export const BUILTIN_MODULES_DIR = fileURLToPath(new URL('../../modules/', import.meta.url));

export function createRunEnv(config: ResolvedMinionConfig, id: string, log: Logger): RunEnv {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const grains = coreGrains(
    id,
    primaryMaster(config.master),
    (config.grains ?? {}) as Record<string, unknown>,
  );
  const loader = createModuleLoader({
    dirs: [join(config.extension_modules, 'modules'), ...config.module_dirs],
    builtinDirs: [BUILTIN_MODULES_DIR],
    packages: [...config.extensions],
    disabled: [...config.disable_modules],
    virtualContext: { opts, grains },
    log,
  });
  return { loader, opts, grains, id, log };
}
