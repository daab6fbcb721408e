/**
 * The root logger (pino). Daemons log JSON lines to their log file and a short human line to
 * stderr; each plugin gets `log.child({ plugin: name })`.
 */
import { mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { LevelWithSilent, Logger, pino as Pino } from 'pino';
import { SALT_ERR_PROCESS_DIR } from './errors.js';

/** pino, loaded by the first logger made: importing this file costs a job process nothing. */
const pinoLib = (): typeof Pino => createRequire(import.meta.url)('pino');

export type { Logger } from 'pino';

/** Salt's level names, mapped onto pino's. */
const SALT_LEVELS: Record<string, LevelWithSilent> = {
  all: 'trace',
  garbage: 'trace',
  trace: 'trace',
  debug: 'debug',
  profile: 'debug',
  info: 'info',
  warning: 'warn',
  warn: 'warn',
  error: 'error',
  critical: 'fatal',
  quiet: 'silent',
};

/** Converts a Salt log level name (`warning`, `critical`, `quiet`, ...) to pino's. */
export function toPinoLevel(level: string): LevelWithSilent {
  return SALT_LEVELS[level.toLowerCase()] ?? 'warn';
}

export interface LoggerOptions {
  name: string;
  /** Salt level for the console (stderr). */
  level: string;
  /** Optional file that receives JSON lines at `fileLevel`. */
  file?: string | null;
  fileLevel?: string;
}

const LEVEL_LABEL: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARNING',
  50: 'ERROR',
  60: 'CRITICAL',
};

/** A small pretty printer for the console, Salt-like: `[INFO    ] message key=value`. */
function consoleStream(): { write(line: string): void } {
  return {
    write(line: string) {
      try {
        const rec = JSON.parse(line) as Record<string, unknown>;
        const { level, msg, time: _t, pid: _p, hostname: _h, name, ...rest } = rec;
        const label = (LEVEL_LABEL[level as number] ?? 'INFO').padEnd(8);
        const extra = Object.entries(rest)
          .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
          .join(' ');
        process.stderr.write(
          `[${label}] ${name ? `${String(name)}: ` : ''}${String(msg ?? '')}${extra ? ` ${extra}` : ''}\n`,
        );
      } catch {
        process.stderr.write(line);
      }
    },
  };
}

/**
 * The log file, its folder made first so that an unusable path is a clear error at start;
 * a later write error (disk full) is reported once on stderr instead of crashing the daemon.
 */
function logFileStream(file: string): Pino.DestinationStream {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (err) {
    throw new SALT_ERR_PROCESS_DIR(dirname(file), (err as Error).message, { cause: err });
  }
  // opened here, not by sonic-boom later: a daemon failing at start can exit at once (its flush)
  const dest = pinoLib().destination({ dest: openSync(file, 'a'), sync: false });
  let reported = false;
  dest.on('error', (err: Error) => {
    if (reported) return;
    reported = true;
    process.stderr.write(`[ERROR   ] cannot write the log file ${file}: ${err.message}\n`);
  });
  return dest;
}

/** Creates a daemon's root logger. */
export function createLogger(opts: LoggerOptions): Logger {
  const pino = pinoLib();
  const consoleLevel = toPinoLevel(opts.level);
  const streams: Pino.StreamEntry[] = [
    { level: consoleLevel === 'silent' ? 'fatal' : consoleLevel, stream: consoleStream() },
  ];
  if (opts.file) {
    const fileLevel = toPinoLevel(opts.fileLevel ?? opts.level);
    streams.push({ level: fileLevel === 'silent' ? 'fatal' : fileLevel, stream: logFileStream(opts.file) });
  }
  const min = Math.min(...streams.map((s) => pino.levels.values[s.level as string] ?? 30));
  const level = consoleLevel === 'silent' && !opts.file ? 'silent' : (pino.levels.labels[min] ?? 'info');
  return pino(
    {
      name: opts.name,
      level,
      base: { pid: process.pid },
      redact: ['key', 'aes', 'session', 'token', 'load.key'],
    },
    pino.multistream(streams),
  );
}

/** A logger that drops everything (tests, `--log-level quiet`). */
export function silentLogger(): Logger {
  return pinoLib()({ level: 'silent' });
}
