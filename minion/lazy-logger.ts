/**
 * A root logger made only when a line is written at an enabled level: with the default levels a
 * job process or an idle minion that logs nothing never loads pino (~15 ms of CPU and a dozen
 * CommonJS files before a job process's first job; ~0.5 MiB of an idle minion's RSS). Child loggers
 * are lazy too. Any other use (`flush`, `bindings`, setting the level) makes the real logger.
 * The log file is opened when the real logger is made; its folder is made, and the file opened
 * once, here, so an unusable path is still an error at start.
 */
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import { SALT_ERR_PROCESS_DIR } from '../kernel/errors.js';
import { createLogger, type Logger, type LoggerOptions, toPinoLevel } from '../kernel/log.js';

/** pino's level values; `silent` writes nothing. */
const VALUES: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Number.POSITIVE_INFINITY,
};

/** The lowest level any of the logger's streams writes, as createLogger sets it up. */
function lowestLevel(opts: LoggerOptions): number {
  const consoleLevel = toPinoLevel(opts.level);
  if (!opts.file) return VALUES[consoleLevel] as number;
  const stream = (level: string): number => Math.min(VALUES[level] as number, VALUES.fatal as number);
  return Math.min(stream(consoleLevel), stream(toPinoLevel(opts.fileLevel ?? opts.level)));
}

/** A logger that stands for `make()`'s until a use needs it. */
function deferred(make: () => Logger, lowest: number): Logger {
  let real: Logger | undefined;
  const get = (): Logger => {
    real ??= make();
    return real;
  };
  const skip = (): void => {};
  return new Proxy({} as Logger, {
    get(_target, prop) {
      if (real === undefined && typeof prop === 'string') {
        const value = prop === 'silent' ? undefined : VALUES[prop];
        if (value !== undefined && value < lowest) return skip;
        if (prop === 'isLevelEnabled') return (level: string) => (VALUES[level] ?? 0) >= lowest;
        if (prop === 'child')
          return (bindings: Record<string, unknown>, options?: { level?: string }) =>
            options?.level === undefined
              ? deferred(() => get().child(bindings), lowest)
              : get().child(bindings, options);
      }
      const logger = get();
      const value: unknown = Reflect.get(logger, prop, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set(_target, prop, value) {
      return Reflect.set(get(), prop, value);
    },
  });
}

/** createLogger's logger, made on first need. */
export function lazyLogger(opts: LoggerOptions): Logger {
  if (opts.file) {
    try {
      mkdirSync(dirname(opts.file), { recursive: true });
      closeSync(openSync(opts.file, 'a'));
    } catch (err) {
      throw new SALT_ERR_PROCESS_DIR(dirname(opts.file), (err as Error).message, { cause: err });
    }
  }
  return deferred(() => createLogger(opts), lowestLevel(opts));
}
