/**
 * The common life of a daemon child process: resolve the config, open a logger, start,
 * report ready (or fatal, with the error's code, so the parent can tell the user), and shut
 * down cleanly on SIGTERM or when the parent dies.
 */
import type { Logger } from 'pino';
import { loadConfig } from '../config/index.js';
import { createLogger } from '../log.js';
import {
  exitWhenParentDies,
  installChildSignalHandlers,
  signalFatal,
  signalReady,
} from '../process/child.js';
import { readBoot } from './boot.js';

export interface ChildContext<C> {
  config: C;
  log: Logger;
  configDir: string;
  overrides: Record<string, unknown>;
}

/** Runs a child: `start` opens its resources and returns its shutdown function. */
export async function runChild<C>(
  name: string,
  start: (ctx: ChildContext<C>) => Promise<() => Promise<void>>,
): Promise<void> {
  const boot = readBoot();
  let shutdown: (() => Promise<void>) | undefined;
  exitWhenParentDies({ shutdown: () => (shutdown ? shutdown() : Promise.resolve()) });
  let log: Logger | undefined;
  try {
    const { config } =
      boot.kind === 'master'
        ? await loadConfig('master', boot.configDir, boot.overrides)
        : await loadConfig('minion', boot.configDir, boot.overrides);
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
