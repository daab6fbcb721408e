/**
 * `salt TARGET FUN [ARGS...]`: publish a job through the local master and print each minion's
 * return as it arrives, with Salt's flags, output and exit codes.
 */
import { resolve } from 'node:path';
import { LocalClient } from '../../client/local-client.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { resolveColor } from '../../outputters/colors.js';
import type { Outputter } from '../../outputters/types.js';
import { cachedConfig, loadConfigCached } from '../config-cache.js';
import { exitWhenWritten } from '../stdio.js';
import { fail } from '../usage-error.js';
import { parseSaltCommandLine, type SaltCliOptions } from './options.js';

/**
 * What the single-file CLI (cli/bundle-entry.ts) leaves to the ES modules: anything that may
 * load a plugin or zod (an `--out` outputter, a config that is not in the cache) and batches.
 */
function bundleCanRun(opts: SaltCliOptions): boolean {
  return (
    opts.out === undefined &&
    opts.output === undefined &&
    opts.batchSize === undefined &&
    !opts.batchSafeLimit
  );
}

/**
 * Runs `salt` to its exit. `bundled`: run from the single-file CLI, which answers `false`,
 * before it has opened anything, where the command needs the ES modules instead.
 */
export async function saltMain(bundled = false): Promise<boolean> {
  const inv = await parseSaltCommandLine(process.argv);
  const { opts } = inv;
  if (bundled && !bundleCanRun(opts)) return false;
  const dir = resolve(opts.configDir);
  const cached = bundled ? cachedConfig('master', dir) : undefined;
  if (bundled && !cached) return false;
  const config: ResolvedMasterConfig =
    cached?.config ??
    (await loadConfigCached('master', dir).then(
      (l) => l.config,
      (err: unknown) => fail('salt', err, 2),
    ));
  const client = new LocalClient(config);
  // Subscribe first: the subscription travels to the master (in ZeroMQ's own thread) while the
  // rest loads. Its failure is reported below, after the command line's own errors.
  const listening = opts.async ? Promise.resolve() : client.listen();
  listening.catch(() => undefined);

  // Salt's get_printout: `--out highstate` keeps the function's own outputter (highstate for
  // state functions), so that it never chokes on other returns.
  const outFlag = opts.out ?? opts.output;
  const outName = outFlag === 'highstate' ? undefined : outFlag;
  let outputter: Outputter | undefined;
  if (outName !== undefined) {
    // Salt's get_printout: an empty name means nested, an unknown one falls back to it
    const { resolveOutputterAsync } = await import('../../outputters/extension-outputters.js');
    outputter = await resolveOutputterAsync(outName, config);
  }
  const color = resolveColor({
    noColor: opts.color === false,
    // Salt never colours a pipe or a file unless forced (`is_pipe()`).
    configColor: process.stdout.isTTY && !opts.outFile ? config.color : false,
    forceColor: Boolean(opts.forceColor),
    isTTY: Boolean(process.stdout.isTTY) && !opts.outFile,
  });
  // The printing code loads while the job is published and runs: nothing is printed before then.
  const running = import('./run.js');
  const printer = import('./printer.js').then(
    ({ Printer }) =>
      new Printer({
        outputter,
        search: config,
        render: {
          color,
          indent: opts.outIndent ?? opts.outputIndent,
          static: Boolean(opts.static),
        },
        stateRender: async () => (await import('../state-output.js')).stateOutputOptions(config, opts),
        static: Boolean(opts.static),
        fun: inv.fun,
        hideTimeout: Boolean(opts.hideTimeout),
        summary: Boolean(opts.summary),
        verbose: Boolean(opts.verbose),
        retcodePassthrough: Boolean(opts.retcodePassthrough),
        outFile: opts.outFile,
        append: opts.outFileAppend,
      }),
  );
  printer.catch(() => undefined);
  const { runBatchJob, runJob } = await running;

  try {
    await listening;
    let batch = opts.batchSize;
    if (!batch && opts.batchSafeLimit && !opts.async) {
      // Salt: past --batch-safe-limit expected minions, run in batches of --batch-safe-size
      // (resolved here on the master host, as Salt's CLI does, without publishing anything)
      const { expectedMinions } = await import('../../kernel/targeting/expected-minions.js');
      const preview = await expectedMinions(config, inv.tgt, inv.tgtType, opts.delimiter);
      if (preview.minions.length >= opts.batchSafeLimit) {
        (await printer).write('\nNOTICE: Too many minions targeted, switching to batch execution.');
        batch = String(opts.batchSafeSize);
      }
    }
    if (batch && !opts.async) await runBatchJob({ client, config, inv, printer }, batch);
    else await runJob({ client, config, inv, printer });
  } catch (err) {
    await client.close();
    const message = (err as { message?: string }).message ?? String(err);
    if (/^(Master could not resolve minions|No minions matched)/.test(message)) {
      process.stdout.write('No minions matched the target. No command was sent, no jid was assigned.\n');
      process.stderr.write('ERROR: No return received\n');
    } else process.stderr.write(`ERROR: ${message}\n`);
    await exitWhenWritten(2);
  }
  await client.close();
  await exitWhenWritten(await (await printer).finish());
  return true;
}
