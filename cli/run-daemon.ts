/**
 * The life of a daemon's main process: parse options, daemonize with `-d`, load and check the
 * config, start, and stop cleanly on SIGTERM/SIGINT. Only this file installs signal handlers.
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { loadConfig, type ResolvedMasterConfig, type ResolvedMinionConfig } from '../kernel/config/index.js';
import { createLogger } from '../kernel/log.js';
import { daemonize } from '../kernel/process/daemonize.js';
import { lazyLogger } from '../minion/lazy-logger.js';
import { type DaemonOptions, daemonCommand, overridesFrom } from './daemon-options.js';
import { notifyReady } from './sd-notify.js';
import { fail } from './usage-error.js';

/** Runs `fn`; a failure is printed with its code and ends the process (exit 1). */
function tryOrFail<T>(prog: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    fail(prog, err, 1);
  }
}

export type DaemonStart<C> = (
  config: C,
  boot: { configDir: string; overrides: Record<string, unknown> },
  log: Logger,
) => Promise<{ stop(): Promise<void> }>;

type ConfigOf<K> = K extends 'master' ? ResolvedMasterConfig : ResolvedMinionConfig;

export async function runDaemon<K extends 'master' | 'minion'>(
  kind: K,
  prog: string,
  description: string,
  start: DaemonStart<ConfigOf<K>>,
): Promise<void> {
  const cmd = daemonCommand(prog, description);
  cmd.parse(process.argv);
  const opts = cmd.opts<DaemonOptions>();
  if (opts.daemon) {
    await daemonize(process.argv, opts.logFile);
    process.exit(0);
  }
  const configDir = resolve(opts.configDir);
  const overrides = overridesFrom(opts);
  let loaded: { config: ConfigOf<K>; warnings: string[] };
  try {
    loaded = (kind === 'master'
      ? await loadConfig('master', configDir, overrides)
      : await loadConfig('minion', configDir, overrides)) as unknown as typeof loaded;
  } catch (err) {
    fail(prog, err, 1);
  }
  const c = loaded.config as unknown as {
    log_level: string;
    log_file?: string | null;
    log_level_logfile?: string | null;
  };
  const logOptions = {
    name: prog,
    level: c.log_level,
    file: c.log_file,
    fileLevel: c.log_level_logfile ?? c.log_level,
  };
  // a minion that logs nothing at its levels never loads pino (its files and start-up CPU)
  const log = tryOrFail(prog, () => (kind === 'minion' ? lazyLogger(logOptions) : createLogger(logOptions)));
  for (const w of loaded.warnings) log.warn(w);
  // Salt's apply_sdb: `sdb://` values in the config read once, before any child gets the config
  const sdbConfig = await import('../plugins/sdb/apply-config.js');
  if (sdbConfig.holdsSdbUri(loaded.config)) {
    loaded.config = await sdbConfig.applySdb(loaded.config, log).catch((err: unknown) => fail(prog, err, 1));
  }
  // Signals are handled from the start: a minion may wait a long time to be accepted.
  let handle: { stop(): Promise<void> } | undefined;
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, `${prog} is shutting down`);
    if (!handle) {
      process.exit(0);
    }
    handle.stop().then(
      () => process.exit(0),
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  try {
    handle = await start(loaded.config, { configDir, overrides }, log);
  } catch (err) {
    log.error({ code: (err as { code?: string }).code }, (err as Error).message);
    fail(prog, err, 1);
  }
  await notifyReady(`${prog} started`, log);
}
