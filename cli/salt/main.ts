/**
 * `salt TARGET FUN [ARGS...]`: publish a job through the local master and print each minion's
 * return as it arrives, with Salt's flags, output and exit codes.
 */
import { resolve } from 'node:path';
import { LocalClient } from '../../kernel/client/local-client.js';
import { loadConfigCached } from '../../kernel/config/cache.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { resolveColor } from '../../outputters/colors.js';
import { findOutputter } from '../../outputters/extension-outputters.js';
import { fail, usageError } from '../usage-error.js';
import { parseSaltCommandLine, USAGE } from './options.js';
import { Printer } from './printer.js';
import { runBatchJob, runJob } from './run.js';

const inv = parseSaltCommandLine(process.argv);
const { opts } = inv;
const config: ResolvedMasterConfig = await loadConfigCached('master', resolve(opts.configDir)).then(
  (l) => l.config,
  (err: unknown) => fail('salt', err, 2),
);
const outName = opts.out ?? opts.output;
if (outName && !(await findOutputter(outName, config))) {
  usageError('salt', USAGE, `unknown outputter ${JSON.stringify(outName)}`);
}
const color = resolveColor({
  noColor: opts.color === false,
  // Salt never colours a pipe or a file unless forced (`is_pipe()`).
  configColor: process.stdout.isTTY && !opts.outFile ? config.color : false,
  forceColor: Boolean(opts.forceColor),
  isTTY: Boolean(process.stdout.isTTY) && !opts.outFile,
});
const printer = new Printer({
  outputter: outName,
  render: { color, indent: opts.outIndent ?? opts.outputIndent, static: Boolean(opts.static) },
  static: Boolean(opts.static),
  hideTimeout: Boolean(opts.hideTimeout),
  summary: Boolean(opts.summary),
  verbose: Boolean(opts.verbose),
  retcodePassthrough: Boolean(opts.retcodePassthrough),
  outFile: opts.outFile,
  append: opts.outFileAppend,
});

const client = new LocalClient(config);
try {
  if (!opts.async) await client.listen();
  let batch = opts.batchSize;
  if (!batch && opts.batchSafeLimit && !opts.async) {
    // Salt: past --batch-safe-limit expected minions, run in batches of --batch-safe-size
    // (resolved here on the master host, as Salt's CLI does, without publishing anything)
    const { expectedMinions } = await import('../../kernel/targeting/expected-minions.js');
    const preview = await expectedMinions(config, inv.tgt, inv.tgtType, opts.delimiter);
    if (preview.minions.length >= opts.batchSafeLimit) {
      printer.write('\nNOTICE: Too many minions targeted, switching to batch execution.');
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
  process.exit(2);
}
await client.close();
process.exit(printer.finish());
