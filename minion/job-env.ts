/**
 * What a minion needs to run functions: the module loader over the configured folders and
 * the built-in modules, the grains (current at each job), and a logger.
 */
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import { createModuleLoader, loadCustomGrains } from '../kernel/loader/index.js';
import { grainsFilePath } from '../modules/_grains-file.js';
import { BUILTIN_DIRS } from '../plugins/builtin-dirs.js';
import { mergeGrains } from './grains-merge.js';
import { GrainsView } from './grains-view.js';
import { primaryMaster } from './master-address.js';
import type { RunEnv } from './run-function.js';
import { readStatesDirs } from './states-dirs.js';

/**
 * The minion's grains as every job sees them: core grains and the custom grain modules
 * (`<extension_modules>/grains`, `grains_dirs`, `extensions` packages) computed once, the
 * grains file (which grains.setval writes) re-read whenever a stat shows it changed, the
 * config's `grains` on top: core < custom grain modules < grains file < config `grains`.
 */
export async function minionGrainsView(
  config: ResolvedMinionConfig,
  id: string,
  log: Logger,
  /** The host grains the minion process found (a job process is handed them), else probed here. */
  handed?: Readonly<Record<string, unknown>>,
): Promise<GrainsView> {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const deep = opts.grains_deep_merge === true;
  const grainsDirs = Array.isArray(opts.grains_dirs) ? opts.grains_dirs.map(String) : [];
  const host = handed ?? (await import('./grains.js')).coreGrains(id, primaryMaster(config.master), {});
  const core = await loadCustomGrains({
    dirs: [join(config.extension_modules, 'grains'), ...grainsDirs],
    packages: [...config.extensions],
    opts,
    id,
    core: host,
    merge: (base, over) => mergeGrains(base, over, deep),
    log,
  });
  return new GrainsView({
    core,
    host,
    file: grainsFilePath(opts),
    configured: (config.grains ?? {}) as Record<string, unknown>,
    deep,
    onError: (message) => log.warn(message),
  });
}

/** The run environment over a grains view made already (the daemon shares its own). */
export function runEnvWith(
  config: ResolvedMinionConfig,
  id: string,
  log: Logger,
  view: GrainsView,
  pillar?: () => Readonly<Record<string, unknown>>,
): RunEnv {
  const opts = config as unknown as Readonly<Record<string, unknown>>;
  const loader = createModuleLoader({
    dirs: [join(config.extension_modules, 'modules'), ...config.module_dirs],
    builtinDirs: [BUILTIN_DIRS.modules],
    packages: [...config.extensions],
    disabled: [...config.disable_modules],
    virtualContext: { opts, grains: view.current() },
    log,
  });
  const stateLoader = createModuleLoader({
    kind: 'states',
    dirs: [join(config.extension_modules, 'states'), ...readStatesDirs(config)],
    builtinDirs: [BUILTIN_DIRS.states],
    packages: [...config.extensions],
    virtualContext: { opts, grains: view.current() },
    log,
  });
  const env: RunEnv = {
    loader,
    stateLoader,
    opts,
    get grains() {
      return view.current();
    },
    id,
    log,
  };
  // the minion's main process reads its live pillar; a job process is given one per job (job-process.ts)
  if (pillar) Object.defineProperty(env, 'pillar', { get: pillar, enumerable: true });
  return env;
}

/**
 * The run environment of a job process or `salt-call`: computes the grains (custom grain modules
 * run once) over the host grains it was `handed`, or probes the host.
 */
export async function createRunEnv(
  config: ResolvedMinionConfig,
  id: string,
  log: Logger,
  handed?: Readonly<Record<string, unknown>>,
): Promise<RunEnv> {
  return runEnvWith(config, id, log, await minionGrainsView(config, id, log, handed));
}
