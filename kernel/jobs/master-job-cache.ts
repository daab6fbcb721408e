/**
 * The master's returners: a loader over the master's extension folders, packages and the
 * built-ins, and the job cache named by `master_job_cache` (with its validated context), which
 * every master process that reads or writes jobs opens the same way.
 */
import { join } from 'node:path';
import type { ResolvedMasterConfig } from '../config/index.js';
import { SALT_ERR_RETURNER_UNAVAILABLE } from '../errors.js';
import type { UnitLogger } from '../loader/define.js';
import { createReturnerLoader, type ReturnerLoader } from '../loader/returner-loader.js';
import type { ReturnerContext, ReturnerDef } from './returner.js';

/** The job cache a master process uses, ready to call. */
export interface MasterJobCache {
  readonly name: string;
  readonly def: ReturnerDef;
  readonly ctx: ReturnerContext;
}

/**
 * The returner loader of a master process: `builtin` are the built-in returners (tried last),
 * `registered` the returners kernel plugins registered (tried first).
 */
export function masterReturnerLoader(
  config: ResolvedMasterConfig,
  log: UnitLogger,
  builtin: Readonly<Record<string, URL>>,
  registered?: (name: string) => ReturnerDef | undefined,
): ReturnerLoader {
  const opts: Parameters<typeof createReturnerLoader>[0] = {
    dirs: [join(config.extension_modules, 'returners'), ...config.returner_dirs],
    packages: [...config.extensions],
    builtin,
    opts: config as unknown as Readonly<Record<string, unknown>>,
    log,
  };
  if (registered) opts.registered = registered;
  return createReturnerLoader(opts);
}

/** Methods a returner needs to serve as `master_job_cache`. */
const JOB_CACHE_METHODS = ['prepJid', 'saveLoad', 'getLoad', 'getJid'] as const;

/**
 * Opens the returner named by `master_job_cache`.
 * @throws SALT_ERR_RETURNER_UNAVAILABLE when it cannot be loaded, lacks the job-cache methods, or
 *   its options are invalid (SALT_ERR_RETURNER_OPTIONS)
 */
export async function openMasterJobCache(
  config: ResolvedMasterConfig,
  loader: ReturnerLoader,
): Promise<MasterJobCache> {
  const name = config.master_job_cache;
  const { def } = await loader.get(name);
  const lacking = JOB_CACHE_METHODS.filter((m) => typeof def[m] !== 'function');
  if (lacking.length > 0) {
    throw new SALT_ERR_RETURNER_UNAVAILABLE(
      name,
      `it cannot be the master_job_cache: it does not implement ${lacking.join(', ')}`,
    );
  }
  return { name, def, ctx: loader.context(def) };
}
