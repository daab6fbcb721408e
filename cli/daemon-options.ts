/**
 * The options salt-master and salt-minion share: `-c`, `-l/--log-level`, `--log-file`,
 * `--log-file-level`, `-d/--daemon`, `--pid-file`, `--version`.
 */
import { Command, Option } from 'commander';
import { LOG_LEVELS } from '../kernel/config/constants.js';
import { defaultConfigDir } from './default-config-dir.js';

export interface DaemonOptions {
  configDir: string;
  logLevel?: string;
  logFile?: string;
  logFileLevel?: string;
  daemon?: boolean;
  pidFile?: string;
  user?: string;
}

export function daemonCommand(prog: string, description: string): Command {
  return new Command(prog)
    .description(description)
    .option('-c, --config-dir <dir>', 'the configuration directory', defaultConfigDir())
    .addOption(new Option('-l, --log-level <level>', 'console log level').choices([...LOG_LEVELS]))
    .option('--log-file <path>', 'log file path')
    .addOption(new Option('--log-file-level <level>', 'log file level').choices([...LOG_LEVELS]))
    .option('-d, --daemon', 'run in the background')
    .option('--pid-file <path>', 'pidfile path')
    .option('-u, --user <user>', 'the user to run as (must be the current user)')
    .option('-V, --version', 'print the version and exit')
    .showHelpAfterError()
    .exitOverride((err) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') process.exit(0);
      process.exit(2);
    });
}

/** Command-line options become config overrides, as in Salt (they win over the file). */
export function overridesFrom(opts: DaemonOptions): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (opts.logLevel) o.log_level = opts.logLevel;
  if (opts.logFile) o.log_file = opts.logFile;
  if (opts.logFileLevel) o.log_level_logfile = opts.logFileLevel;
  if (opts.pidFile) o.pidfile = opts.pidFile;
  return o;
}
