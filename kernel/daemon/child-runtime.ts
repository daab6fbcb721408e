/**
 * The common life of a daemon child process: resolve the config, open a logger, start,
 * report ready (or fatal, with the error's code, so the parent can tell the user), and shut
 * down cleanly on SIGTERM or when the parent dies.
 */
import type { Logger } from 'pino';
import { createLogger } from '../log.js';
import {
  exitWhenParentDies,
  installChildSignalHandlers,
  signalFatal,
  signalReady,
} from '../process/child.js';
import { type BootInfo, readBoot } from './boot.js';

export interface ChildContext<C> {
  config: C;
  log: Logger;
  configDir: string;
  overrides: Record<string, unknown>;
  /** The parent's resolved config, usable where no plugin has to run. */
  resolvedWithoutPlugins?: Record<string, unknown>;
}

/** Loads the config in this process (needed when plugins must run here). */
async function loadOwnConfig(boot: BootInfo): Promise<unknown> {
  const { loadConfig } = await import('../config/index.js');
  const { config } =
    boot.kind === 'master'
      ? await loadConfig('master', boot.configDir, boot.overrides)
      : await loadConfig('minion', boot.configDir, boot.overrides);
  return config;
}

/**
 * Runs a child: `start` opens its resources and returns its shutdown function. A child that
 * runs no plugins (`needsPlugins: false`) takes the parent's resolved config.
 */
export async function runChild<C>(
  name: string,
  start: (ctx: ChildContext<C>) => Promise<() => Promise<void>>,
  opts: { needsPlugins?: boolean } = {},
): Promise<void> {
  const boot = readBoot();
  let shutdown: (() => Promise<void>) | undefined;
  exitWhenParentDies({ shutdown: () => (shutdown ? shutdown() : Promise.resolve()) });
  let log: Logger | undefined;
  try {
    const config = !opts.needsPlugins && boot.resolved ? boot.resolved : await loadOwnConfig(boot);
    const c = config as unknown as {
      log_level: string;
      log_file?: string | null;
      log_level_logfile?: string | null;
    };
    log = createLogger({
      name: `${boot.kind === 'master' ? 'salt-master' : 'salt-minion'}/${name}`,
      level: c.log_level,
      file: c.log_file,
      fileLevel: c.log_level_logfile ?? c.log_level,
    });
    shutdown = await start({
      config: config as C,
      log,
      configDir: boot.configDir,
      overrides: boot.overrides,
      resolvedWithoutPlugins: boot.hasPlugins ? undefined : boot.resolved,
    });
    installChildSignalHandlers(shutdown);
    await signalReady();
  } catch (err) {
    const e = err as { code?: string; message?: string };
    log?.error({ err }, `${name} failed to start`);
    await signalFatal({ code: e.code ?? 'SALT_ERR_PROCESS_START', message: e.message ?? String(err) });
    process.exit(1);
  }
}
