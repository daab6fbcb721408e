/**
 * Runs reactions through the master's request server, as `salt` and `salt-run` do (clear
 * `publish`, `runner` and `wheel` commands with the local user key), but as user `Reactor`
 * so the loop guard and the job cache can tell the reactor's jobs apart. `local` jobs are
 * published without waiting for returns (Salt's `cmd_async`); runner and wheel functions are
 * checked with the master's loaders first, so an unknown one is a clear error.
 */
import { userInfo } from 'node:os';
import { masterRequestClient, readOwnUserKey } from '../../client/master-access.js';
import { type ResolvedMasterConfig, SaltError, type UnitLogger } from '../../kernel/index.js';
import {
  createRunnerLoader,
  createWheelLoader,
  type ReqClient,
  type RunnerLoader,
  returnerNames,
} from '../../kernel/services.js';
import { packNetwork, unpackNetwork } from '../../kernel/util.js';
import { BUILTIN_DIRS } from '../builtin-dirs.js';
import type { NamedReaction } from './define.js';
import { SALT_ERR_REACTOR_REACTION } from './errors.js';
import { REACTOR_USER } from './loop-guard.js';
import type { Executor, StartedJob } from './reactor.js';

const EXECUTE_ERROR = 'SALT_ERR_CLIENT_PUBLISH';

/** Salt's `condition_kwarg`: keyword arguments travel as a trailing `__kwarg__` mapping. */
export function publishArgs(arg: readonly unknown[], kwarg: Readonly<Record<string, unknown>>): unknown[] {
  return Object.keys(kwarg).length > 0 ? [...arg, { ...kwarg, __kwarg__: true }] : [...arg];
}

export class MasterExecutor implements Executor {
  readonly #config: ResolvedMasterConfig;
  readonly #req: ReqClient;
  readonly #runners: RunnerLoader<unknown>;
  readonly #wheel: RunnerLoader<unknown>;
  #key: string | undefined;

  constructor(config: ResolvedMasterConfig, log: UnitLogger) {
    this.#config = config;
    this.#req = masterRequestClient(config);
    const opts = config as unknown as Record<string, unknown>;
    this.#runners = createRunnerLoader(opts, log, [BUILTIN_DIRS.runners]) as RunnerLoader<unknown>;
    this.#wheel = createWheelLoader(opts, log, [BUILTIN_DIRS.wheel]) as RunnerLoader<unknown>;
  }

  async #userKey(): Promise<string> {
    this.#key ??= await readOwnUserKey(this.#config, 'publish').catch(() => {
      throw new SaltError(
        EXECUTE_ERROR,
        `cannot read the master's key for user ${userInfo().username} in ${this.#config.cachedir}: the reactor cannot start jobs`,
      );
    });
    return this.#key;
  }

  async #clear(load: Record<string, unknown>): Promise<Record<string, unknown>> {
    const full = { ...load, key: await this.#userKey(), user: REACTOR_USER };
    let frame: Buffer;
    try {
      frame = await this.#req.request(packNetwork({ enc: 'clear', load: full, version: 3 }));
    } catch {
      throw new SaltError(EXECUTE_ERROR, 'the master did not answer the reactor request in time');
    }
    const reply = unpackNetwork(frame) as Record<string, unknown> | string;
    if (typeof reply === 'string') throw new SaltError(EXECUTE_ERROR, `the master refused: ${reply}`);
    const body = (reply.load ?? reply) as Record<string, unknown>;
    if (body.error) {
      const e = body.error as { name?: string; message?: string } | string;
      throw new SaltError(EXECUTE_ERROR, typeof e === 'string' ? e : `${e.name}: ${e.message}`);
    }
    return body;
  }

  async #known(loader: RunnerLoader<unknown>, r: NamedReaction): Promise<void> {
    if (!(await loader.get(r.fun))) {
      const why = await loader.explain(r.fun).catch(() => `'${r.fun}' is not available.`);
      throw new SALT_ERR_REACTOR_REACTION(`${r.id} (${r.source})`, `${r.kind} function ${why}`);
    }
  }

  async run(r: NamedReaction): Promise<StartedJob> {
    const arg = r.arg ?? [];
    const kwarg = r.kwarg ?? {};
    if (r.kind === 'caller')
      throw new SALT_ERR_REACTOR_REACTION(
        `${r.id} (${r.source})`,
        `caller reactions (masterless minions running ${r.fun} locally) are not supported by tsalt: use local.${r.fun} with a tgt`,
      );
    if (r.kind === 'local') {
      const kwargs: Record<string, unknown> = { show_timeout: true, show_jid: false, delimiter: ':' };
      if (r.metadata) kwargs.metadata = r.metadata;
      const body = await this.#clear({
        cmd: 'publish',
        tgt: r.tgt,
        fun: r.fun,
        arg: publishArgs(arg, kwarg),
        tgt_type: r.tgtType ?? 'glob',
        ret: returnerNames(r.ret, this.#config.ext_job_cache).join(','),
        jid: '',
        kwargs,
      });
      if (!body.jid)
        throw new SaltError(
          EXECUTE_ERROR,
          `no minions matched the target ${JSON.stringify(r.tgt)}: nothing was published`,
        );
      return {
        jid: String(body.jid),
        minions: (body.minions as string[]) ?? [],
        missing: (body.missing as string[]) ?? [],
      };
    }
    if (r.kind === 'runner') {
      await this.#known(this.#runners, r);
      const body = await this.#clear({ cmd: 'runner', fun: r.fun, arg, kwarg });
      return { jid: String(body.jid), tag: String(body.tag ?? `salt/run/${String(body.jid)}`) };
    }
    await this.#known(this.#wheel, r);
    const body = await this.#clear({ cmd: 'wheel', fun: r.fun, arg, kwarg });
    const data = (body.data ?? {}) as Record<string, unknown>;
    return { jid: String(data.jid), tag: String(body.tag ?? data.tag), success: data.success !== false };
  }

  close(): void {
    this.#req.close();
  }
}
