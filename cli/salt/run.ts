/**
 * Running a `salt` invocation: one job, or a batch (`-b`, or automatically past
 * `--batch-safe-limit`), printing as Salt does.
 */

import type { LocalClient, PublishOptions } from '../../client/local-client.js';
import type { ResolvedMasterConfig } from '../../kernel/config/index.js';
import type { SaltInvocation } from './options.js';
import { LOOKUP_HINT, type Printer } from './printer.js';

interface RunContext {
  client: LocalClient;
  config: ResolvedMasterConfig;
  inv: SaltInvocation;
  /** Still loading when a run starts: a job is published before its printer is needed. */
  printer: Promise<Printer>;
}

async function publishOptions(inv: SaltInvocation): Promise<PublishOptions> {
  return {
    tgt: inv.tgt,
    fun: inv.fun,
    arg: inv.arg,
    tgtType: inv.tgtType,
    ret: inv.opts.return ?? '',
    delimiter: inv.opts.delimiter,
    kwargs: await returnerKwargs(inv),
  };
}

/** Salt's `ret_config`/`ret_kwargs`, sent in the publish's kwargs for the minions' returners. */
async function returnerKwargs(inv: SaltInvocation): Promise<Record<string, unknown>> {
  const kwargs: Record<string, unknown> = {};
  if (inv.opts.return_config) kwargs.ret_config = inv.opts.return_config;
  if (inv.opts.return_kwargs) {
    const { yamlifyArg } = await import('../../kernel/jobs/yamlify-arg.js');
    kwargs.ret_kwargs = yamlifyArg(inv.opts.return_kwargs);
  }
  return kwargs;
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
      `\nExiting gracefully on Ctrl-c\nThis job's jid is: ${jid}\n${LOOKUP_HINT}\n\nsalt-run jobs.lookup_jid ${jid}\n`,
    );
    // the job cache notes which minions were still running when we stopped waiting
    void client.abandon().finally(() => process.exit(1));
  });
}

/** One job: publish, then print each return as it arrives. */
export async function runJob(ctx: RunContext): Promise<void> {
  const { client, inv } = ctx;
  const pub = await client.publish(await publishOptions(inv));
  // Salt's LocalClient: a list of only unknown minions matched nothing (no key, no job)
  if (pub.minions.length === 0) throw new Error('No minions matched the target.');
  if (!inv.opts.async) onInterrupt(client, pub.jid);
  const printer = await ctx.printer;
  if (inv.opts.async) {
    printer.write(`Executed command with job ID: ${pub.jid}`);
    return;
  }
  if (inv.opts.verbose)
    printer.write(`Executing job with jid ${pub.jid}\n-------------------------------------------\n`);
  else if (inv.opts.showJid) printer.write(`jid: ${pub.jid}`);
  for await (const r of client.collect(pub, timeouts(ctx))) {
    if ('ret' in r) {
      await printer.prepare(r.ret.out);
      printer.ret(r.id, r.ret);
    } else printer.noReturn(r.id, r.noReturn, pub.jid);
  }
}

/** A progress line on a terminal (stderr): how many done, running, left. */
function progress(done: number, running: number, left: number): void {
  if (!process.stderr.isTTY) return;
  process.stderr.write(`\r\u001b[K[batch] done ${done}, running ${running}, left ${left}`);
}

/**
 * Batch mode: the responding minions, N at a time (Salt's `salt/cli/batch.py`); quiet with
 * `--static` (no down minions, no runs announced, no progress).
 */
export async function runBatchJob(ctx: RunContext, size: string): Promise<void> {
  const { client, inv } = ctx;
  const printer = await ctx.printer;
  const { timeout } = timeouts(ctx);
  const [{ respondingMinions, runBatch }, { pyRepr }, { localBatchDriver }] = await Promise.all([
    import('../../client/batch.js'),
    import('../../kernel/python/repr.js'),
    import('../../client/batch-driver.js'),
  ]);
  const { up, down } = await respondingMinions(
    client,
    { tgt: inv.tgt, tgtType: inv.tgtType, delimiter: inv.opts.delimiter },
    timeout,
  );
  if (up.length === 0 && down.length === 0) throw new Error('No minions matched the target.');
  printer.startBatch();
  if (!inv.opts.static)
    for (const id of down) printer.write(`Minion ${id} did not respond. No job will be sent.`);
  let done = 0;
  let running = 0;
  for await (const ev of runBatch(localBatchDriver(client, timeouts(ctx).gatherJobTimeout), up, {
    ...(await publishOptions(inv)),
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
      await printer.prepare(ev.ret.out);
      printer.ret(ev.id, ev.ret);
    } else if (ev.type === 'noReturn') {
      running--;
      done++;
      printer.noReturn(ev.id, ev.reason);
    } else {
      // Salt logs it at error level: on stderr, in its console log format
      process.stderr.write(
        `[ERROR   ] Minion ${ev.id} returned with non-zero exit code. Batch run stopped due to failhard\n`,
      );
    }
    if (!inv.opts.static) progress(done, running, up.length - done - running);
  }
  if (process.stderr.isTTY && !inv.opts.static) process.stderr.write('\n');
}
