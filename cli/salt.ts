/**
 * `salt TARGET FUN [ARGS...]`: publish a job through the local master and print each minion's
 * return as it arrives, with Salt's flags, output and exit codes.
 */
import { fail, usageError } from './usage-error.js';
import { handleVersionFlag } from './version.js';

handleVersionFlag('salt', process.argv);

const { Command, Option } = await import('commander');
const { resolve } = await import('node:path');
const { defaultConfigDir } = await import('./default-config-dir.js');
const { loadConfigCached } = await import('../kernel/config/cache.js');
type MasterConfig = import('../kernel/config/index.js').ResolvedMasterConfig;
const { parseCliArgs } = await import('../kernel/jobs/args.js');
const { LocalClient } = await import('../kernel/client/local-client.js');
const { resolveColor } = await import('../outputters/colors.js');
const { getOutputter, resolveOutputter } = await import('../outputters/registry.js');

const USAGE = "salt [options] '<target>' <function> [arguments]";

interface SaltCliOptions {
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
  static?: boolean;
  color?: boolean;
  forceColor?: boolean;
  verbose?: boolean;
  showJid?: boolean;
  hideTimeout?: boolean;
  return?: string;
  logLevel?: string;
}

const program = new Command('salt')
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
  .option('--static', 'print all returns at once when the job ends')
  .option('--no-color', 'disable colours')
  .option('--force-color', 'force colours')
  .option('-v, --verbose', 'print the jid and which minions did not return')
  .option('--show-jid', 'print the jid')
  .option('--hide-timeout', 'do not print minions that did not return')
  .addOption(new Option('--return <returners>', 'returners to send the returns to (comma-separated)'))
  .option('-l, --log-level <level>', 'console log level')
  .option('-V, --version', 'print the version and exit')
  .exitOverride((err) => {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.help') process.exit(0);
    process.exit(2);
  });

program.parse(process.argv);
const opts = program.opts<SaltCliOptions>();
const [targetArg, funArg, ...rest] = program.args;
if (!targetArg || !funArg) usageError('salt', USAGE, 'you need to pass a target and a function');
const target: string = targetArg;
const fun: string = funArg;
// Salt's TargetOptionsMixIn: one target type at most, named by its long option
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
const selected = TARGET_TYPES.filter(([k]) => opts[k]);
if (selected.length > 1)
  usageError(
    'salt',
    USAGE,
    `The options ${selected.map(([, flag]) => flag).join('/')} are mutually exclusive. Please only choose one of them`,
  );
if (opts.timeout !== undefined && !(opts.timeout > 0))
  usageError('salt', USAGE, '--timeout must be a positive number');
if (opts.delimiter !== undefined && opts.delimiter === '')
  usageError('salt', USAGE, '--delimiter must not be empty');
const tgtType: string = selected[0]?.[2] ?? 'glob';
// Salt: a list target with a comma is split on commas (spaces dropped), otherwise on whitespace
const tgt: string | string[] = opts.list
  ? (target.includes(',') ? target.replace(/ /g, '').split(',') : target.split(/\s+/)).filter(Boolean)
  : target;

const config: MasterConfig = await loadConfigCached('master', resolve(opts.configDir)).then(
  (l) => l.config,
  (err: unknown) => fail('salt', err, 2),
);
const outName = opts.out ?? opts.output;
if (outName && !getOutputter(outName))
  usageError('salt', USAGE, `unknown outputter ${JSON.stringify(outName)}`);
const color = resolveColor({
  noColor: opts.color === false,
  // Salt never colours a pipe unless forced (`is_pipe()`).
  configColor: process.stdout.isTTY ? config.color : false,
  forceColor: Boolean(opts.forceColor),
  isTTY: Boolean(process.stdout.isTTY),
});
const renderOpts = { color, indent: opts.outIndent ?? opts.outputIndent, static: Boolean(opts.static) };

function print(data: Record<string, unknown>, out: string | undefined, retcode?: number): void {
  const outputter = resolveOutputter(outName ?? out);
  const text = outputter.render(data, retcode === undefined ? renderOpts : { ...renderOpts, retcode });
  if (text) process.stdout.write(`${text}\n`);
}

const client = new LocalClient(config);
let exitCode = 0;
try {
  if (!opts.async) await client.listen();
  const pub = await client.publish({
    tgt,
    fun,
    arg: parseCliArgs(rest),
    tgtType,
    ret: opts.return ?? '',
    delimiter: opts.delimiter,
  });
  if (opts.async) {
    process.stdout.write(`Executed command with job ID: ${pub.jid}\n`);
  } else {
    if (opts.verbose)
      process.stdout.write(
        `Executing job with jid ${pub.jid}\n-------------------------------------------\n\n`,
      );
    else if (opts.showJid) process.stdout.write(`jid: ${pub.jid}\n`);
    const timeout = opts.timeout ?? config.timeout;
    const gatherJobTimeout = opts.gatherJobTimeout ?? config.gather_job_timeout;
    const collected: Record<string, unknown> = {};
    let staticOut: string | undefined;
    for await (const r of client.collect(pub, { timeout, gatherJobTimeout })) {
      if ('ret' in r) {
        const retcode = r.ret.retcode;
        if (typeof retcode === 'number' ? retcode !== 0 : Object.values(retcode ?? {}).some((c) => c !== 0))
          exitCode = 1;
        if (opts.static) {
          collected[r.id] = r.ret.return;
          staticOut ??= r.ret.out;
        } else print({ [r.id]: r.ret.return }, r.ret.out, typeof retcode === 'number' ? retcode : undefined);
      } else {
        exitCode = 1;
        if (opts.hideTimeout) continue;
        const text = `Minion did not return. [${r.noReturn}]`;
        if (opts.static) collected[r.id] = text;
        else print({ [r.id]: text }, 'nested');
      }
    }
    if (opts.static) print(collected, staticOut);
  }
} catch (err) {
  client.close();
  const message = (err as { message?: string }).message ?? String(err);
  if (/^(Master could not resolve minions|No minions matched)/.test(message)) {
    process.stdout.write('No minions matched the target. No command was sent, no jid was assigned.\n');
    process.stderr.write('ERROR: No return received\n');
  } else process.stderr.write(`ERROR: ${message}\n`);
  process.exit(2);
}
client.close();
process.exit(exitCode);
