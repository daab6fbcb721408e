/**
 * The client a runner uses to run execution functions on minions: a publish through the
 * master with the local user key and the returns gathered from the bus, exactly as `salt`
 * does (client/local-client.ts), with the master's timeouts by default.
 */

import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import type { MinionCallOptions, MinionCallReturn, MinionClient } from '../kernel/runners/define.js';
import { LocalClient } from './local-client.js';

function retcodeOf(rc: unknown): number {
  if (typeof rc === 'number') return rc;
  if (rc && typeof rc === 'object') return Math.max(0, ...Object.values(rc).map(Number));
  return 0;
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
    let pub: Awaited<ReturnType<LocalClient['publish']>>;
    try {
      pub = await client.publish({
        tgt: typeof tgt === 'string' ? tgt : [...tgt],
        fun,
        arg: args,
        tgtType: opts.tgtType ?? (typeof tgt === 'string' ? 'glob' : 'list'),
      });
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
      if ('ret' in r) {
        const retcode = retcodeOf(r.ret.retcode);
        const success = typeof r.ret.success === 'boolean' ? r.ret.success : retcode === 0;
        returns[r.id] = { return: r.ret.return, retcode, success };
      } else missing[r.id] = r.noReturn;
    }
    return { jid: pub.jid, returns, missing };
  }

  async close(): Promise<void> {
    await this.#client?.close();
    this.#client = undefined;
  }
}
