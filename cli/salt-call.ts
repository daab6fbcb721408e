/**
 * `salt-call [options] FUN [ARGS...]`: run one function on this minion and print it under
 * `local:`, returning it through the master unless `--local` (Salt's `salt/cli/call.py`).
 */

import { blockingStdio, exitWhenWritten } from './stdio.js';
import { fail, usageError } from './usage-error.js';
import { handleVersionFlag } from './version.js';

blockingStdio();
handleVersionFlag('salt-call', process.argv);

const { Command, Option } = await import('commander');
const { resolve } = await import('node:path');
const { defaultConfigDir } = await import('./default-config-dir.js');
const { intOption, parseLikeOptparse } = await import('./optparse.js');
const { loadConfigCached } = await import('./config-cache.js');
const { resolveMinionId } = await import('../kernel/config/minion-id.js');
const { parseCliArgs } = await import('../kernel/jobs/args.js');
const { resolveColor } = await import('../outputters/colors.js');
const { STATE_OUTPUT_FLAGS, stateOutputOptions } = await import('./state-output.js');
type UnitLogger = import('../kernel/loader/define.js').UnitLogger;

const USAGE = 'salt-call [options] <function> [arguments]';

interface CallCliOptions {
  configDir: string;
  local?: boolean;
  id?: string;
  logLevel?: string;
  out?: string;
  output?: string;
  outIndent?: number;
  outputIndent?: number;
  color?: boolean;
  forceColor?: boolean;
  retcodePassthrough?: boolean;
  return?: string;
  timeout?: number;
  stateOutput?: string;
  state_output?: string;
  stateVerbose?: string;
  state_verbose?: string;
  outputDiff?: boolean;
}

const program = new Command('salt-call')
  .usage('[options] <function> [arguments]')
  .description('salt-call is used to execute module functions locally on a Salt Minion')
  .argument('[function]')
  .argument('[arguments...]')
  .option('-c, --config-dir <dir>', 'the minion configuration directory', defaultConfigDir())
  .option('--local', 'run without a master (file_client: local)')
  .option('--id <id>', 'the minion id to use')
  .option('-l, --log-level <level>', 'console log level (default: the config log_level, warning)')
  .option('--out <outputter>', 'the outputter (nested, json, yaml, txt, raw, ...)')
  .addOption(new Option('--output <outputter>').hideHelp())
  .option('--out-indent <n>', 'indentation for json/yaml output', intOption('--out-indent'))
  .addOption(new Option('--output-indent <n>').argParser(intOption('--output-indent')).hideHelp())
  .option('--no-color', 'disable colours')
  .option('--force-color', 'force colours')
  .option('--retcode-passthrough', "exit with the function's retcode")
  .option('--return <returners>', 'returners to send the return to (comma-separated)')
  .option(
    '-t, --timeout <seconds>',
    'seconds to wait for the master to take the return',
    intOption('-t, --timeout'),
  )
  .option('--output-diff', 'report only those states that have changed')
  .option('-V, --version', 'print the version and exit');
for (const f of STATE_OUTPUT_FLAGS) program.addOption(new Option(f.flags, f.description).hideHelp(f.hidden));

parseLikeOptparse(program, { prog: 'salt-call', usage: USAGE }, process.argv);
const opts = program.opts<CallCliOptions>();
const [funArg, ...rest] = program.args;
if (!funArg) {
  // Salt prints its help, then the usage error
  process.stdout.write(program.helpInformation());
  usageError('salt-call', USAGE, 'Requires function, --grains or --doc');
}
const fun: string = funArg;
// as Salt: a timeout of 0 or less is none
if (opts.timeout !== undefined && opts.timeout <= 0) opts.timeout = undefined;
// Salt's get_printout: `--out highstate` keeps the function's own outputter (highstate for
// state functions), so that it never chokes on other returns.
const outFlag = opts.out ?? opts.output;
const outName = outFlag === 'highstate' ? undefined : outFlag;

const overrides: Record<string, unknown> = {};
if (opts.id) overrides.id = opts.id;
if (opts.local) overrides.file_client = 'local';
let config = await loadConfigCached('minion', resolve(opts.configDir), overrides).then(
  (l) => l.config,
  (err: unknown) => fail('salt-call', err, 2),
);

/** Salt's console log levels, lowest first; `quiet` prints nothing. */
const LEVELS = ['trace', 'debug', 'info', 'warning', 'error', 'critical'] as const;
const LEVEL_ALIASES: Record<string, number> = { all: 0, garbage: 0, profile: 1, warn: 3, quiet: 99 };
function levelIndex(name: string): number {
  const n = name.toLowerCase();
  const i = (LEVELS as readonly string[]).indexOf(n);
  return i >= 0 ? i : (LEVEL_ALIASES[n] ?? 3);
}

/** A small stderr logger in Salt's console form (`[WARNING ] message`); pino costs ~130 ms to load. */
function consoleLogger(level: string): UnitLogger {
  const min = levelIndex(level);
  const at =
    (i: number) =>
    (obj: object | string, msg?: string): void => {
      if (i < min) return;
      const text = typeof obj === 'string' ? obj : msg;
      const extra =
        typeof obj === 'string'
          ? ''
          : Object.entries(obj)
              .map(([k, v]) => {
                const value = v instanceof Error ? v.message : v;
                return ` ${k}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
              })
              .join('');
      const label = (LEVELS[i] ?? 'info').toUpperCase().padEnd(8);
      process.stderr.write(`[${label}] ${text ?? ''}${extra}\n`);
    };
  return { trace: at(0), debug: at(1), info: at(2), warn: at(3), error: at(4) };
}

const log = consoleLogger(opts.logLevel ?? config.log_level);
// Salt's apply_sdb: `sdb://` values in the config read once, here (never into the config cache)
const sdbConfig = await import('../plugins/sdb/apply-config.js');
if (sdbConfig.holdsSdbUri(config)) {
  config = await sdbConfig.applySdb(config, log).catch((err: unknown) => fail('salt-call', err, 2));
}
const color = resolveColor({
  noColor: opts.color === false,
  forceColor: Boolean(opts.forceColor),
  isTTY: Boolean(process.stdout.isTTY),
});

const { callFunction } = await import('../minion/caller.js');
const id = resolveMinionId(config);
let result: Awaited<ReturnType<typeof callFunction>>;
try {
  result = await callFunction(config, id, {
    fun,
    arg: parseCliArgs(rest),
    cliArgs: rest,
    local: opts.local,
    returners: (opts.return ?? '').split(',').map((s) => s.trim()),
    returnTimeoutMs: opts.timeout === undefined ? undefined : opts.timeout * 1000,
    log,
  });
} catch (err) {
  const code = (err as { code?: string }).code;
  // Salt: a key still pending ends salt-call with 2, a rejected key with EX_NOPERM (77).
  const exit = code === 'SALT_ERR_AUTH_PENDING' ? 2 : code === 'SALT_ERR_AUTH_REJECTED' ? 77 : 1;
  fail('salt-call', err, exit);
}
if (result.missing) {
  process.stderr.write(`${String(result.return)}\n`);
  await exitWhenWritten(255);
}
if (result.failure?.kind === 'usage') {
  // Salt's caller: the reason on stderr, the function's docstring on stdout, exit 1
  const { pyDocstring } = await import('../kernel/jobs/args.js');
  process.stderr.write(`\nPassed invalid arguments: ${result.failure.message}.\n\nUsage:\n`);
  const doc = result.failure.doc;
  process.stdout.write(`${doc ? pyDocstring(doc) : 'None'}\n`);
  await exitWhenWritten(1);
}
if (result.failure?.kind === 'command') {
  process.stderr.write(`Error running '${fun}': ${result.failure.message}\n`);
  await exitWhenWritten(1);
}
if (result.failure?.kind === 'exit') {
  // a SystemExit(0) is a help text (argparse's -h): stdout, as Python prints it
  (result.failure.status === 0 ? process.stdout : process.stderr).write(`${result.failure.message}\n`);
  await exitWhenWritten(result.failure.status ?? 1);
}
if (result.failure?.kind === 'uncaught') {
  // Salt's caller lets any other exception through: its global exception handler logs it with
  // the traceback, then Python's own hook prints the traceback again; nothing on stdout
  const traceback = result.failure.traceback ?? '';
  log.error(
    `An un-handled exception was caught by Salt's global exception handler:\n${result.failure.message}\n${traceback.trimEnd()}`,
  );
  process.stderr.write(traceback);
  await exitWhenWritten(1);
}
// the one outputter it prints with is loaded (not all ten: ~20 modules of a short run), and
// one not built in is looked for in the extension folders, as salt and salt-run do
const { resolveOutputterAsync } = await import('../outputters/extension-outputters.js');
const outputter = await resolveOutputterAsync(outName ?? result.out, config);
const text = outputter.render(
  { local: result.return },
  {
    color,
    indent: opts.outIndent ?? opts.outputIndent,
    retcode: result.retcode,
    ...stateOutputOptions(config, opts),
  },
);
if (text) process.stdout.write(`${text}\n`);
await exitWhenWritten(opts.retcodePassthrough ? result.retcode : result.retcode === 0 ? 0 : 1);
