/**
 * The `salt-run` command line: Salt's options, parsed and checked before anything is sent.
 */
import { Command, Option } from 'commander';
import { LOG_LEVELS } from '../../kernel/config/constants.js';
import { parseCliArgs } from '../../kernel/jobs/args.js';
import { defaultConfigDir } from '../default-config-dir.js';
import { intOption, parseLikeOptparse } from '../optparse.js';
import { usageError } from '../usage-error.js';

export const USAGE = 'salt-run [options] <function> [arguments]';

export interface SaltRunOptions {
  configDir: string;
  timeout?: number;
  async?: boolean;
  out?: string;
  output?: string;
  outIndent?: number;
  outputIndent?: number;
  color?: boolean;
  forceColor?: boolean;
  stateOutput?: string;
  state_output?: string;
  stateVerbose?: string;
  state_verbose?: string;
  logLevel?: string;
  doc?: boolean;
}

export interface SaltRunInvocation {
  opts: SaltRunOptions;
  /** Empty with `--doc`, or with no function: then every runner's doc is printed, as Salt does. */
  fun: string;
  /** Published form: positionals, then one `__kwarg__` map. */
  arg: unknown[];
}

function program(): Command {
  return new Command('salt-run')
    .usage('[options] <function> [arguments]')
    .description(
      'salt-run is the frontend command for executing Salt Runners.\nSalt Runners are modules used to execute convenience functions on the Salt Master',
    )
    .argument('[function]')
    .argument('[arguments...]')
    .option('-c, --config-dir <dir>', 'the configuration directory', defaultConfigDir())
    .option(
      '-t, --timeout <seconds>',
      'stop the runner (and report it) when it runs longer than this',
      intOption('-t, --timeout'),
    )
    .option('--async', 'start the runner and print its jid without waiting')
    .option('-d, --doc', 'print the documentation of the runner functions (all, a module or a function)')
    .option('--out <outputter>', 'the outputter (nested, json, yaml, txt, raw, ...)')
    .addOption(new Option('--output <outputter>').hideHelp())
    .option('--out-indent <n>', 'indentation for json/yaml output', intOption('--out-indent'))
    .addOption(new Option('--output-indent <n>').argParser(intOption('--output-indent')).hideHelp())
    .option('--no-color', 'disable colours')
    .option('--force-color', 'force colours')
    .option('--state-output <mode>', "override state_output: 'full', 'terse', 'mixed', 'changes' or 'filter'")
    .addOption(new Option('--state_output <mode>').hideHelp())
    .option('--state-verbose <bool>', 'override state_verbose: True or False')
    .addOption(new Option('--state_verbose <bool>').hideHelp())
    .option('-l, --log-level <level>', `console log level: ${LOG_LEVELS.join(', ')}`)
    .option('-V, --version', 'print the version and exit');
}

export function parseSaltRunCommandLine(argv: readonly string[]): SaltRunInvocation {
  const cmd = parseLikeOptparse(program(), { prog: 'salt-run', usage: USAGE }, argv);
  const opts = cmd.opts<SaltRunOptions>();
  const [fun, ...rest] = cmd.args;
  // as Salt: a timeout of 0 or less is none
  if (opts.timeout !== undefined && opts.timeout <= 0) opts.timeout = undefined;
  if (opts.logLevel !== undefined && !(LOG_LEVELS as readonly string[]).includes(opts.logLevel))
    usageError('salt-run', USAGE, `invalid log level ${JSON.stringify(opts.logLevel)}`);
  if (fun && !opts.doc && !/^[^.\s]+\.[^\s]+$/.test(fun))
    usageError('salt-run', USAGE, `"${fun}" is not a runner function: use <module>.<function>`);
  return { opts, fun: fun ?? '', arg: parseCliArgs(rest) };
}
