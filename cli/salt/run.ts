/**
 * Running a `salt` invocation: one job, or a batch (`-b`, or automatically past
 * `--batch-safe-limit`), printing as Salt does.
 */

import { respondingMinions, runBatch } from '../../kernel/client/batch.js';
import type { LocalClient, PublishOptions } from '../../kernel/client/local-client.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import { yamlifyArg } from '../../kernel/jobs/yamlify-arg.js';
import { pyRepr } from '../../kernel/python/repr.js';
import { findOutputter } from '../../outputters/extension-outputters.js';
import type { SaltInvocation } from './options.js';
import type { Printer } from './printer.js';

interface RunContext {
  client: LocalClient;
  config: ResolvedMasterConfig;
  inv: SaltInvocation;
  printer: Printer;
}

function publishOptions(inv: SaltInvocation): PublishOptions {
  return {
    tgt: inv.tgt,
    fun: inv.fun,
    arg: inv.arg,
    tgtType: inv.tgtType,
    ret: inv.opts.return ?? '',
    delimiter: inv.opts.delimiter,
    kwargs: returnerKwargs(inv),
  };
}

/** Salt's `ret_config`/`ret_kwargs`, sent in the publish's kwargs for the minions' returners. */
function returnerKwargs(inv: SaltInvocation): Record<string, unknown> {
  const kwargs: Record<string, unknown> = {};
  if (inv.opts.return_config) kwargs.ret_config = inv.opts.return_config;
  if (inv.opts.return_kwargs) kwargs.ret_kwargs = yamlifyArg(inv.opts.return_kwargs);
  return kwargs;
}

/** A function may declare a custom outputter: load it (once) before its return is printed. */
async function loadDeclaredOutputter(ctx: RunContext, out: string | undefined): Promise<void> {
  if (out && !ctx.inv.opts.out && !ctx.inv.opts.output) await findOutputter(out, ctx.config);
}

function timeouts(ctx: RunContext): { timeout: number; gatherJobTimeout: number } {
  return {
    timeout: ctx.inv.opts.timeout ?? ctx.config.timeout,
    gatherJobTimeout: ctx.inv.opts.gatherJobTimeout ?? ctx.config.gather_job_timeout,
  };
}

/**
 * Ctrl-C while waiting: the job goes on; say how to get its returns later, as Salt does.
 */
function onInterrupt(client: LocalClient, jid: string): void {
  process.once('SIGINT', () => {
    process.stdout.write(
      `\nExiting gracefully on Ctrl-c\nThis job's jid is: ${jid}\nThe minions may not have all finished running and any remaining minions will return upon completion. To look up the return data for this job later, run the following command:\n\nsalt-run jobs.lookup_jid ${jid}\n`,
    );
    // the job cache notes which minions were still running when we stopped waiting
    void client.abandon().finally(() => process.exit(1));
  });
}

/** One job: publish, then print each return as it arrives. */
export async function runJob(ctx: RunContext): Promise<void> {
  const { client, inv, printer } = ctx;
  const pub = await client.publish(publishOptions(inv));
  if (inv.opts.async) {
    printer.write(`Executed command with job ID: ${pub.jid}`);
    return;
  }
  onInterrupt(client, pub.jid);
  if (inv.opts.verbose)
    printer.write(`Executing job with jid ${pub.jid}\n-------------------------------------------\n`);
  else if (inv.opts.showJid) printer.write(`jid: ${pub.jid}`);
  for await (const r of client.collect(pub, timeouts(ctx))) {
    if ('ret' in r) {
      await loadDeclaredOutputter(ctx, r.ret.out);
      printer.ret(r.id, r.ret);
    } else printer.noReturn(r.id, r.noReturn);
  }
}

/** A progress line on a terminal (stderr): how many done, running, left. */
function progress(done: number, running: number, left: number): void {
  if (!process.stderr.isTTY) return;
  process.stderr.write(`\r\u001b[K[batch] done ${done}, running ${running}, left ${left}`);
}

/** Batch mode: the responding minions, N at a time (Salt's `salt/cli/batch.py`). */
export async function runBatchJob(ctx: RunContext, size: string): Promise<void> {
  const { client, inv, printer } = ctx;
  const { timeout } = timeouts(ctx);
  const { up, down } = await respondingMinions(
    client,
    { tgt: inv.tgt, tgtType: inv.tgtType, delimiter: inv.opts.delimiter },
    timeout,
  );
  if (up.length === 0 && down.length === 0) throw new Error('No minions matched the target.');
  for (const id of down) printer.noReturn(id, 'No response');
  let done = 0;
  let running = 0;
  for await (const ev of runBatch(client, up, {
    ...publishOptions(inv),
    size,
    wait: inv.opts.batchWait,
    failhard: Boolean(inv.opts.failhard),
    timeout,
  })) {
    if (ev.type === 'start') {
      running += ev.minions.length;
      if (!inv.opts.static) printer.write(`\nExecuting run on ${pyRepr([...ev.minions].sort())}\n`);
    } else if (ev.type === 'return') {
      running--;
      done++;
      await loadDeclaredOutputter(ctx, ev.ret.out);
      printer.ret(ev.id, ev.ret);
    } else if (ev.type === 'noReturn') {
      running--;
      done++;
      printer.noReturn(ev.id, ev.reason);
    } else {
      printer.write(
        `ERROR: Minion ${ev.id} returned with non-zero exit code. Batch run stopped due to failhard`,
      );
    }
    progress(done, running, up.length - done - running);
  }
  if (process.stderr.isTTY) process.stderr.write('\n');
}
