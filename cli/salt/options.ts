/**
 * The `salt` command line: Salt's options, parsed and checked before anything is sent.
 */
import { Command, Option } from 'commander';
import { batchSize } from '../../kernel/client/batch.js';
import { parseCliArgs } from '../../kernel/jobs/args.js';
import { splitMultiFunctionArgs } from '../../kernel/jobs/multi-function.js';
import { defaultConfigDir } from '../default-config-dir.js';
import { usageError } from '../usage-error.js';

export const USAGE = "salt [options] '<target>' <function> [arguments]";

export interface SaltCliOptions {
  configDir: string;
  list?: boolean;
  pcre?: boolean;
  grain?: boolean;
  compound?: boolean;
  nodegroup?: boolean;
  pillar?: boolean;
  ipcidr?: boolean;
  grainPcre?: boolean;
  pillarPcre?: boolean;
  delimiter?: string;
  timeout?: number;
  gatherJobTimeout?: number;
  async?: boolean;
  out?: string;
  output?: string;
  outIndent?: number;
  outputIndent?: number;
  outFile?: string;
  outFileAppend?: boolean;
  static?: boolean;
  color?: boolean;
  forceColor?: boolean;
  verbose?: boolean;
  showJid?: boolean;
  hideTimeout?: boolean;
  summary?: boolean;
  retcodePassthrough?: boolean;
  return?: string;
  return_config?: string;
  return_kwargs?: string;
  argsSeparator: string;
  /** `--no-parse a,b` (commander names it `parse`; `true` when absent). */
  parse?: string | boolean;
  batchSize?: string;
  batch?: string;
  batchWait: number;
  batchSafeLimit?: number;
  batchSafeSize: number;
  failhard?: boolean;
  logLevel?: string;
}

/** What the command line asks for, checked. */
export interface SaltInvocation {
  opts: SaltCliOptions;
  tgt: string | string[];
  tgtType: string;
  fun: string | string[];
  arg: unknown[];
}

const TARGET_TYPES = [
  ['pcre', '--pcre', 'pcre'],
  ['list', '--list', 'list'],
  ['grain', '--grain', 'grain'],
  ['grainPcre', '--grain-pcre', 'grain_pcre'],
  ['nodegroup', '--nodegroup', 'nodegroup'],
  ['compound', '--compound', 'compound'],
  ['pillar', '--pillar', 'pillar'],
  ['pillarPcre', '--pillar-pcre', 'pillar_pcre'],
  ['ipcidr', '--ipcidr', 'ipcidr'],
] as const;

function program(): Command {
  return new Command('salt')
    .usage("[options] '<target>' <function> [arguments]")
    .argument('[target]')
    .argument('[function]')
    .argument('[arguments...]')
    .option('-c, --config-dir <dir>', 'the configuration directory', defaultConfigDir())
    .option('-E, --pcre', 'the target is a regular expression on the minion id')
    .option('-L, --list', 'the target is a comma or whitespace delimited list of minion ids')
    .option('-G, --grain', 'the target is a grain key and a glob on its value: "os:Arch*"')
    .option('-P, --grain-pcre', 'the target is a grain key and a regular expression: "os:Arch.*"')
    .option('-N, --nodegroup', 'the target is a nodegroup from the master config')
    .option('-C, --compound', "a compound target: 'G@os:RedHat and webser* or E@database.*'")
    .option('-I, --pillar', 'the target is a pillar key and a glob on its value: "role:web*"')
    .option('-J, --pillar-pcre', 'the target is a pillar key and a regular expression')
    .option('-S, --ipcidr', 'the target is an IP address or a CIDR subnet: 10.0.0.0/8')
    .option('--delimiter <delimiter>', "the delimiter for nested grain and pillar keys (default ':')")
    .option('-t, --timeout <seconds>', 'seconds to wait for returns before the find_job check', Number)
    .option('--gather-job-timeout <seconds>', 'seconds to wait for the find_job replies', Number)
    .option('--async', 'publish and print the job id without waiting')
    .option('--out <outputter>', 'the outputter (nested, json, yaml, txt, raw, ...)')
    .addOption(new Option('--output <outputter>').hideHelp())
    .option('--out-indent <n>', 'indentation for json/yaml output', Number)
    .addOption(new Option('--output-indent <n>').argParser(Number).hideHelp())
    .option('--out-file <path>', 'write the output to a file instead of stdout')
    .option('--out-file-append', 'append to --out-file instead of replacing it')
    .option('--static', 'print all returns at once when the job ends')
    .option('--no-color', 'disable colours')
    .option('--force-color', 'force colours')
    .option('-v, --verbose', 'print the jid and which minions did not return')
    .option('--show-jid', 'print the jid')
    .option('--hide-timeout', 'do not print minions that did not return')
    .option('--summary', 'print a summary of the returns')
    .option('--retcode-passthrough', "exit with the minions' highest retcode")
    .addOption(new Option('--return <returners>', 'returners to send the returns to (comma-separated)'))
    .option('--return_config <name>', "read the returners' options from <name>.<returner>.<key> config keys")
    .option('--return_kwargs <map>', 'options for the returners, as a YAML/JSON map (override the config)')
    .option('--args-separator <sep>', 'separates the arguments of several functions', ',')
    .addOption(
      new Option('--no-parse <names>', 'comma-separated k=v argument names not to parse (passed as text)'),
    )
    .option('-b, --batch-size <size>', 'run on N minions (or N%) at a time')
    .addOption(new Option('--batch <size>').hideHelp())
    .option('--batch-wait <seconds>', 'wait after a minion returns before its slot is used again', Number, 0)
    .option('--batch-safe-limit <n>', 'batch automatically when more than N minions are targeted', Number)
    .option('--batch-safe-size <n>', 'the batch size used by --batch-safe-limit', Number, 8)
    .option('--failhard', 'in batch mode, stop at the first minion that fails')
    .option('-l, --log-level <level>', 'console log level')
    .option('-V, --version', 'print the version and exit')
    .exitOverride((err) => {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') process.exit(0);
      process.exit(2);
    });
}

export function parseSaltCommandLine(argv: readonly string[]): SaltInvocation {
  const cmd = program();
  cmd.parse([...argv]);
  const opts = cmd.opts<SaltCliOptions>();
  const [target, funWord, ...rest] = cmd.args;
  if (!target || !funWord) usageError('salt', USAGE, 'you need to pass a target and a function');
  // Salt's TargetOptionsMixIn: one target type at most, named by its long option
  const selected = TARGET_TYPES.filter(([k]) => opts[k]);
  if (selected.length > 1) {
    const flags = selected.map(([, flag]) => flag).join('/');
    usageError('salt', USAGE, `The options ${flags} are mutually exclusive. Please only choose one of them`);
  }
  if (opts.timeout !== undefined && !(opts.timeout > 0))
    usageError('salt', USAGE, '--timeout must be a positive number');
  if (opts.delimiter === '') usageError('salt', USAGE, '--delimiter must not be empty');
  if (!(opts.batchWait >= 0)) usageError('salt', USAGE, '--batch-wait must be a number of seconds');
  opts.batchSize ??= opts.batch;
  if (opts.batchSize !== undefined) {
    try {
      batchSize(opts.batchSize, 1);
    } catch (err) {
      usageError('salt', USAGE, (err as Error).message);
    }
  }
  if (opts.outFileAppend && !opts.outFile) usageError('salt', USAGE, '--out-file-append needs --out-file');
  const tgtType: string = selected[0]?.[2] ?? 'glob';
  // Salt: a list target with a comma is split on commas (spaces dropped), otherwise on whitespace
  const tgt: string | string[] = opts.list
    ? (target.includes(',') ? target.replace(/ /g, '').split(',') : target.split(/\s+/)).filter(Boolean)
    : target;
  const noParse = typeof opts.parse === 'string' ? opts.parse.split(',').filter(Boolean) : [];
  if (funWord.includes(',')) {
    const funs = funWord.split(',').filter(Boolean);
    let lists: string[][];
    try {
      lists = splitMultiFunctionArgs(funs, rest, opts.argsSeparator);
    } catch (err) {
      usageError('salt', USAGE, (err as Error).message);
    }
    return { opts, tgt, tgtType, fun: funs, arg: lists.map((l) => parseCliArgs(l, { noParse })) };
  }
  return { opts, tgt, tgtType, fun: funWord, arg: parseCliArgs(rest, { noParse }) };
}
