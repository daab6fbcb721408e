/**
 * The master's config loaded again where its code must run (plugins in a `master.config.ts`):
 * the request server's router and worker threads and the task processes each load it
 * themselves, and read its `sdb://` values as the master read them at start (Salt's
 * `apply_sdb`), so every master process sees the same values. The values are logged nowhere
 * and never written to the config cache.
 */
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { Logger } from '../kernel/log.js';

/** The master config in `configDir` with `overrides`, as loaded (its `sdb://` values not yet read). */
export async function loadMasterConfig(
  configDir: string,
  overrides: Readonly<Record<string, unknown>>,
): Promise<ResolvedMasterConfig> {
  const { loadConfig } = await import('../kernel/config/index.js');
  return (await loadConfig('master', configDir, overrides)).config;
}

/** `config` with its `sdb://` values read (the same object when it holds none). */
export async function withSdbValues(
  config: ResolvedMasterConfig,
  log: Logger,
): Promise<ResolvedMasterConfig> {
  const sdb = await import('../plugins/sdb/apply-config.js');
  return sdb.holdsSdbUri(config) ? sdb.applySdb(config, log) : config;
}
