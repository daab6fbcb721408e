/**
 * The client a runner uses to run execution functions on minions: a publish through the
 * master with the local user key and the returns gathered from the bus, exactly as `salt`
 * does (client/local-client.ts), with the master's timeouts by default.
 */

import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { JobReturn } from '../kernel/jobs/types.js';
import type { MinionCallOptions, MinionCallReturn, MinionClient } from '../kernel/runners/define.js';
import { respondingMinions, runBatch } from './batch.js';
import { localBatchDriver } from './batch-driver.js';
import { LocalClient, type PublishOptions } from './local-client.js';

function retcodeOf(rc: unknown): number {
  if (typeof rc === 'number') return rc;
  if (rc && typeof rc === 'object') return Math.max(0, ...Object.values(rc).map(Number));
  return 0;
}

function minionReturn(ret: JobReturn): MinionCallReturn {
  const retcode = retcodeOf(ret.retcode);
  return {
    return: ret.return,
    retcode,
    success: typeof ret.success === 'boolean' ? ret.success : retcode === 0,
  };
}

const NO_MINIONS = /^(Master could not resolve minions|No minions matched)/;

/** A {@link MinionClient} over one LocalClient, opened on first use; `close()` when done. */
export class RunnerMinionClient implements MinionClient {
  readonly #config: ResolvedMasterConfig;
  #client: LocalClient | undefined;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(config: ResolvedMasterConfig) {
    this.#config = config;
  }

  async #open(): Promise<LocalClient> {
    if (!this.#client) {
      const c = new LocalClient(this.#config);
      await c.listen();
      this.#client = c;
    }
    return this.#client;
  }

  async cmd(
    tgt: string | readonly string[],
    fun: string,
    arg: readonly unknown[] = [],
    opts: MinionCallOptions = {},
  ): Promise<Record<string, unknown>> {
    const full = await this.cmdFull(tgt, fun, arg, opts);
    return Object.fromEntries(Object.entries(full.returns).map(([id, r]) => [id, r.return]));
  }

  cmdFull(
    tgt: string | readonly string[],
    fun: string,
    arg: readonly unknown[] = [],
    opts: MinionCallOptions = {},
  ): ReturnType<MinionClient['cmdFull']> {
    // one job at a time: the LocalClient reads one event stream
    const run = this.#queue.then(() => this.#run(tgt, fun, arg, opts));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #run(
    tgt: string | readonly string[],
    fun: string,
    arg: readonly unknown[],
    opts: MinionCallOptions,
  ): ReturnType<MinionClient['cmdFull']> {
    const client = await this.#open();
    const args = [...arg];
    if (opts.kwargs && Object.keys(opts.kwargs).length > 0) args.push({ __kwarg__: true, ...opts.kwargs });
    const job: PublishOptions = {
      tgt: typeof tgt === 'string' ? tgt : [...tgt],
      fun,
      arg: args,
      tgtType: opts.tgtType ?? (typeof tgt === 'string' ? 'glob' : 'list'),
      ...(opts.ret ? { ret: opts.ret } : {}),
    };
    if (opts.batch) return this.#batch(client, job, opts.batch, opts);
    let pub: Awaited<ReturnType<LocalClient['publish']>>;
    try {
      pub = await client.publish(job);
    } catch (err) {
      if (NO_MINIONS.test((err as Error).message)) return { jid: '', returns: {}, missing: {} };
      throw err;
    }
    const returns: Record<string, MinionCallReturn> = {};
    const missing: Record<string, string> = {};
    for await (const r of client.collect(pub, {
      timeout: opts.timeout ?? this.#config.timeout,
      gatherJobTimeout: opts.gatherJobTimeout ?? this.#config.gather_job_timeout,
    })) {
      if ('ret' in r) returns[r.id] = minionReturn(r.ret);
      else missing[r.id] = r.noReturn;
    }
    return { jid: pub.jid, returns, missing, unknown: [...pub.missing] };
  }

  /**
   * Salt's `cmd_batch`: the minions that answer a `test.ping`, `size` (`N` or `N%`) of them at a
   * time (client/batch.ts); a minion that answers neither is in `missing`. No jid: each slot's
   * publish has its own.
   */
  async #batch(
    client: LocalClient,
    job: PublishOptions,
    size: string,
    opts: MinionCallOptions,
  ): ReturnType<MinionClient['cmdFull']> {
    const timeout = opts.timeout ?? this.#config.timeout;
    const gather = opts.gatherJobTimeout ?? this.#config.gather_job_timeout;
    const returns: Record<string, MinionCallReturn> = {};
    const missing: Record<string, string> = {};
    const { up, down } = await respondingMinions(client, job, timeout);
    for (const id of down) missing[id] = 'No response';
    const driver = localBatchDriver(client, gather);
    for await (const ev of runBatch(driver, up, {
      ...job,
      size,
      wait: 0,
      failhard: !!opts.failhard,
      timeout,
    })) {
      if (ev.type === 'return') returns[ev.id] = minionReturn(ev.ret);
      else if (ev.type === 'noReturn') missing[ev.id] = ev.reason;
    }
    return { jid: '', returns, missing };
  }

  async close(): Promise<void> {
    await this.#client?.close();
    this.#client = undefined;
  }
}
