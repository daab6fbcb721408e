/**
 * The minion's matchers (plugins/matchers): loaded at start and again after a module sync into
 * this process's table, which the publish intake hands to the kernel's targeting and the inline
 * `match` functions read. No custom matcher (the common case) costs nothing per publish.
 */
import type { ResolvedMinionConfig } from '../kernel/config/index.js';
import type { UnitLogger } from '../kernel/loader/define.js';
import { loadMatchers, matchersOptions, setProcessMatchers } from '../plugins/matchers/index.js';

/** Loads the matchers of `config`'s folders into this process's table; a failing load is logged and leaves the table as it was. */
export async function loadMinionMatchers(config: ResolvedMinionConfig, log: UnitLogger): Promise<void> {
  try {
    const found = await loadMatchers({
      extensionModules: config.extension_modules,
      dirs: matchersOptions.read(config).matchers_dirs,
      packages: config.extensions,
      log,
    });
    if (found.size > 0) log.info({ matchers: [...found.keys()] }, 'custom matchers loaded');
    setProcessMatchers(found);
  } catch (err) {
    log.warn({ err: (err as Error).message }, 'custom matchers not loaded');
  }
}
