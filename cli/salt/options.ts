/**
 * The `salt` command line: Salt's options, parsed and checked before anything is sent.
 */
import { createRequire } from 'node:module';
import type { Command } from 'commander';
import { defaultConfigDir } from '../default-config-dir.js';
import { type FastParse, type FlagSpec, fastParseFlags } from '../fast-flags.js';
import { floatOption, helpExit, intOption, parseLikeOptparse } from '../optparse.js';
import { usageError } from '../usage-error.js';

export const USAGE = "salt [options] '<target>' <function> [arguments]";

/** Salt's description of `salt`, under the usage line of its help. */
const DESCRIPTION =
  'Salt allows for commands to be executed across a swath of remote systems in\nparallel, so they can be both controlled and queried with ease.';

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
  stateOutput?: string;
  state_output?: string;
  stateVerbose?: string;
  state_verbose?: string;
  outputDiff?: boolean;
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

/** Salt's `salt` options, for the fast parser and for commander (help, errors, odd input). */
export function saltFlags(): FlagSpec[] {
  return [
    { flags: '-c, --config-dir <dir>', help: 'the configuration directory', default: defaultConfigDir() },
    { flags: '-E, --pcre', help: 'the target is a regular expression on the minion id' },
    { flags: '-L, --list', help: 'the target is a comma or whitespace delimited list of minion ids' },
    { flags: '-G, --grain', help: 'the target is a grain key and a glob on its value: "os:Arch*"' },
    { flags: '-P, --grain-pcre', help: 'the target is a grain key and a regular expression: "os:Arch.*"' },
    { flags: '-N, --nodegroup', help: 'the target is a nodegroup from the master config' },
    { flags: '-C, --compound', help: "a compound target: 'G@os:RedHat and webser* or E@database.*'" },
    { flags: '-I, --pillar', help: 'the target is a pillar key and a glob on its value: "role:web*"' },
    { flags: '-J, --pillar-pcre', help: 'the target is a pillar key and a regular expression' },
    { flags: '-S, --ipcidr', help: 'the target is an IP address or a CIDR subnet: 10.0.0.0/8' },
    {
      flags: '--delimiter <delimiter>',
      help: "the delimiter for nested grain and pillar keys (default ':')",
    },
    {
      flags: '-t, --timeout <seconds>',
      help: 'seconds to wait for returns before the find_job check',
      parse: intOption('-t, --timeout'),
    },
    {
      flags: '--gather-job-timeout <seconds>',
      help: 'seconds to wait for the find_job replies',
      parse: intOption('--gather-job-timeout'),
    },
    { flags: '--async', help: 'publish and print the job id without waiting' },
    { flags: '--out <outputter>', help: 'the outputter (nested, json, yaml, txt, raw, ...)' },
    { flags: '--output <outputter>' },
    { flags: '--out-indent <n>', help: 'indentation for json/yaml output', parse: intOption('--out-indent') },
    { flags: '--output-indent <n>', parse: intOption('--output-indent') },
    { flags: '--out-file <path>', help: 'write the output to a file instead of stdout' },
    { flags: '--out-file-append', help: 'append to --out-file instead of replacing it' },
    { flags: '--static', help: 'print all returns at once when the job ends' },
    {
      flags: '--state-output <mode>',
      help: "override state_output: 'full', 'terse', 'mixed', 'changes' or 'filter' (and _id forms)",
    },
    { flags: '--state_output <mode>' },
    { flags: '--state-verbose <bool>', help: 'override state_verbose: True or False' },
    { flags: '--state_verbose <bool>' },
    { flags: '--output-diff', help: 'report only those states that have changed' },
    { flags: '--no-color', help: 'disable colours' },
    { flags: '--force-color', help: 'force colours' },
    { flags: '-v, --verbose', help: 'print the jid and which minions did not return' },
    { flags: '--show-jid', help: 'print the jid' },
    { flags: '--hide-timeout', help: 'do not print minions that did not return' },
    { flags: '--summary', help: 'print a summary of the returns' },
    { flags: '--retcode-passthrough', help: "exit with the minions' highest retcode" },
    { flags: '--return <returners>', help: 'returners to send the returns to (comma-separated)' },
    {
      flags: '--return_config <name>',
      help: "read the returners' options from <name>.<returner>.<key> config keys",
    },
    {
      flags: '--return_kwargs <map>',
      help: 'options for the returners, as a YAML/JSON map (override the config)',
    },
    { flags: '--args-separator <sep>', help: 'separates the arguments of several functions', default: ',' },
    {
      flags: '--no-parse <names>',
      help: 'comma-separated k=v argument names not to parse (passed as text)',
    },
    { flags: '-b, --batch-size <size>', help: 'run on N minions (or N%) at a time' },
    { flags: '--batch <size>' },
    {
      flags: '--batch-wait <seconds>',
      help: 'wait after a minion returns before its slot is used again',
      parse: floatOption('--batch-wait'),
      default: 0,
    },
    {
      flags: '--batch-safe-limit <n>',
      help: 'batch automatically when more than N minions are targeted',
      parse: intOption('--batch-safe-limit'),
    },
    {
      flags: '--batch-safe-size <n>',
      help: 'the batch size used by --batch-safe-limit',
      parse: intOption('--batch-safe-size'),
      default: 8,
    },
    { flags: '--failhard', help: 'in batch mode, stop at the first minion that fails' },
    { flags: '-l, --log-level <level>', help: 'console log level' },
    { flags: '-V, --version', help: 'print the version and exit' },
  ];
}

/** The `salt` command as commander knows it: for `--help`, errors and odd input. */
function saltProgram(flags: readonly FlagSpec[]): Command {
  const { Command, Option } = createRequire(import.meta.url)('commander') as typeof import('commander');
  const cmd = new Command('salt')
    .usage("[options] '<target>' <function> [arguments]")
    .description(DESCRIPTION)
    .argument('[target]')
    .argument('[function]')
    .argument('[arguments...]');
  for (const f of flags) {
    const option = new Option(f.flags, f.help);
    if (f.parse) option.argParser(f.parse);
    if (f.default !== undefined) option.default(f.default);
    if (f.help === undefined) option.hideHelp();
    cmd.addOption(option);
  }
  return cmd;
}

/**
 * The command line as commander reads it, with optparse's errors (cli/optparse.ts): for
 * `--help`, for errors and for input the fast parser leaves to it. Loaded only then.
 */
export function commanderParse(argv: readonly string[], flags: readonly FlagSpec[]): FastParse {
  const cmd = parseLikeOptparse(saltProgram(flags), { prog: 'salt', usage: USAGE }, argv);
  return { opts: cmd.opts(), args: cmd.args };
}

/** Parses CLI argument words, loading the parser (and YAML typing) only when there are some. */
async function parseArgs(words: readonly string[], noParse: readonly string[]): Promise<unknown[]> {
  if (words.length === 0) return [];
  const { parseCliArgs } = await import('../../kernel/jobs/args.js');
  return parseCliArgs(words, { noParse });
}

/**
 * The `salt` command line, checked; a usage error exits. Code for rarer input (batch sizes,
 * several functions, arguments) is loaded only when the command line has it.
 */
export async function parseSaltCommandLine(argv: readonly string[]): Promise<SaltInvocation> {
  const flags = saltFlags();
  const parsed = fastParseFlags(argv.slice(2), flags) ?? commanderParse(argv, flags);
  const opts = parsed.opts as unknown as SaltCliOptions;
  const [target, funWord, ...rest] = parsed.args;
  // Salt prints its help, then says what is missing, and exits 42
  if (target === undefined)
    helpExit(saltProgram(flags), '\nCannot execute command without defining a target.\n\n', 42);
  if (funWord === undefined) helpExit(saltProgram(flags), '\nIncomplete options passed.\n\n', 42);
  // Salt's TargetOptionsMixIn: one target type at most, named by its long option
  const selected = TARGET_TYPES.filter(([k]) => opts[k]);
  if (selected.length > 1) {
    const flags = selected.map(([, flag]) => flag).join('/');
    usageError('salt', USAGE, `The options ${flags} are mutually exclusive. Please only choose one of them`);
  }
  // Salt: a timeout of 0 or less means the config's `timeout`
  if (opts.timeout !== undefined && opts.timeout <= 0) opts.timeout = undefined;
  if (opts.delimiter === '') usageError('salt', USAGE, '--delimiter must not be empty');
  if (!(opts.batchWait >= 0)) usageError('salt', USAGE, '--batch-wait must be a number of seconds');
  opts.batchSize ??= opts.batch;
  if (opts.batchSize !== undefined) {
    const { batchSize } = await import('../../client/batch.js');
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
    const { splitMultiFunctionArgs } = await import('./multi-function.js');
    let lists: string[][];
    try {
      lists = splitMultiFunctionArgs(funs, rest, opts.argsSeparator);
    } catch (err) {
      usageError('salt', USAGE, (err as Error).message);
    }
    const arg = await Promise.all(lists.map((l) => parseArgs(l, noParse)));
    return { opts, tgt, tgtType, fun: funs, arg };
  }
  return { opts, tgt, tgtType, fun: funWord, arg: await parseArgs(rest, noParse) };
}
