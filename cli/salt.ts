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
  .option('-L, --list', 'the target is a comma-separated list of minion ids')
  .option('-E, --pcre', 'the target is a regular expression')
  .option('-G, --grain', 'grain targeting (not yet supported)')
  .option('-P, --grain-pcre', 'grain pcre targeting (not yet supported)')
  .option('-C, --compound', 'compound targeting (not yet supported)')
  .option('-N, --nodegroup', 'nodegroup targeting (not yet supported)')
  .option('-I, --pillar', 'pillar targeting (not yet supported)')
  .option('-S, --ipcidr', 'ipcidr targeting (not yet supported)')
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
const unsupported = (['grain', 'grainPcre', 'compound', 'nodegroup', 'pillar', 'ipcidr'] as const).find(
  (k) => opts[k],
);
if (unsupported)
  usageError('salt', USAGE, `${unsupported} targeting is not supported by this tsalt version yet`);
if (opts.timeout !== undefined && !(opts.timeout > 0))
  usageError('salt', USAGE, '--timeout must be a positive number');
const tgtType = opts.list ? 'list' : opts.pcre ? 'pcre' : 'glob';
const tgt: string | string[] = opts.list
  ? target
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)
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
  const pub = await client.publish({ tgt, fun, arg: parseCliArgs(rest), tgtType, ret: opts.return ?? '' });
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
