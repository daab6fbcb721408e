/**
 * A job process's root logger, made only when a line is written at an enabled level: with the
 * default levels a job process that logs nothing never loads pino (~15 ms of CPU and a dozen
 * CommonJS files before its first job). Any other use (a child logger, `flush`, setting the
 * level) makes the real logger first.
 */
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

/** createLogger's logger, made on first need. */
export function lazyLogger(opts: LoggerOptions): Logger {
  const lowest = lowestLevel(opts);
  let real: Logger | undefined;
  const make = (): Logger => {
    real ??= createLogger(opts);
    return real;
  };
  const skip = (): void => {};
  return new Proxy({} as Logger, {
    get(_target, prop) {
      if (real === undefined && typeof prop === 'string') {
        const value = prop === 'silent' ? undefined : VALUES[prop];
        if (value !== undefined && value < lowest) return skip;
        if (prop === 'isLevelEnabled') return (level: string) => (VALUES[level] ?? 0) >= lowest;
      }
      const logger = make();
      const value: unknown = Reflect.get(logger, prop, logger);
      return typeof value === 'function' ? value.bind(logger) : value;
    },
    set(_target, prop, value) {
      return Reflect.set(make(), prop, value);
    },
  });
}
