import type { EventListener } from '../kernel/bus/event-bus.js';
import type { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { SaltError } from '../kernel/errors.js';
import type { SaltEvent } from '../kernel/jobs/types.js';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import {
  listenToMasterBus,
  masterRequestClient,
  ownUserName,
  readOwnUserKey,
  SALT_ERR_CLIENT_PUBLISH,
} from './master-access.js';

export { SALT_ERR_CLIENT_PUBLISH };

export interface RunnerCall {
  fun: string;
  arg: unknown[];
  kwarg?: Record<string, unknown>;
  /** Seconds the master lets the runner run before it stops it. */
  timeout?: number;
}

/** One event of a runner job, with its tag suffix (`new`, `progress`, `print`, `ret`, ...). */
export interface RunnerEvent {
  suffix: string;
  data: Record<string, unknown>;
}

export class RunnerClient {
  readonly #config: ResolvedMasterConfig;
  readonly #req: ReqClient;
  #listener: EventListener | undefined;
  #events: AsyncIterator<SaltEvent> | undefined;
  #pending: Promise<SaltEvent | undefined> | undefined;
  #closed = false;

  constructor(config: ResolvedMasterConfig) {
    this.#config = config;
    this.#req = masterRequestClient(config);
  }

  /** Subscribes to `salt/run/` and `salt/wheel/` events; resolves when the subscription is live. */
  async listen(): Promise<void> {
    if (this.#listener) return;
    this.#listener = await listenToMasterBus(this.#config, ['salt/run/', 'salt/wheel/']);
    this.#events = this.#listener[Symbol.asyncIterator]();
  }

  #userKey(): Promise<string> {
    return readOwnUserKey(this.#config, 'run runners');
  }

  /** Sends one clear command and returns the master's reply body; an `error` reply throws. */
  async #clear(load: Record<string, unknown>): Promise<Record<string, unknown>> {
    const full = { ...load, key: await this.#userKey(), user: ownUserName() };
    let frame: Buffer;
    try {
      frame = await this.#req.request(packNetwork({ enc: 'clear', load: full, version: 3 }));
    } catch {
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, 'Salt request timed out. The master is not responding.');
    }
    const reply = unpackNetwork(frame) as Record<string, unknown> | string;
    if (typeof reply === 'string')
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, `the master refused: ${reply}`);
    if (reply.error) {
      const e = reply.error as { name?: string; message?: string } | string;
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, typeof e === 'string' ? e : `${e.name}: ${e.message}`);
    }
    return reply;
  }

  /** Starts a runner; resolves with Salt's `{tag, jid}`. */
  async runner(call: RunnerCall): Promise<{ tag: string; jid: string }> {
    const load: Record<string, unknown> = {
      cmd: 'runner',
      fun: call.fun,
      arg: call.arg,
      kwarg: call.kwarg ?? {},
    };
    if (call.timeout !== undefined) load.timeout = call.timeout;
    const reply = await this.#clear(load);
    if (typeof reply.jid !== 'string')
      throw new SaltError(
        SALT_ERR_CLIENT_PUBLISH,
        'the master did not start the runner (no jid in its reply)',
      );
    return { tag: String(reply.tag ?? `salt/run/${reply.jid}`), jid: reply.jid };
  }

  /** Runs a wheel function; resolves with Salt's `data` (`fun`, `jid`, `tag`, `user`, `return`, `success`). */
  async wheel(
    fun: string,
    arg: unknown[] = [],
    kwarg: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const reply = await this.#clear({ cmd: 'wheel', fun, arg, kwarg });
    return (reply.data ?? {}) as Record<string, unknown>;
  }

  async #next(deadline: number): Promise<SaltEvent | undefined> {
    const events = this.#events;
    if (!events) throw new Error('listen() first');
    this.#pending ??= events.next().then((r) => (r.done ? undefined : r.value));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = Symbol('timeout');
    const timeout = new Promise<typeof timedOut>((r) => {
      timer = setTimeout(() => r(timedOut), Math.max(0, deadline - Date.now()));
    });
    const winner = await Promise.race([this.#pending, timeout]);
    clearTimeout(timer);
    if (winner === timedOut) return undefined;
    this.#pending = undefined;
    if (winner === undefined) this.#closed = true;
    return winner;
  }

  /**
   * The events of runner job `jid` until its `ret` (included), or until `timeoutMs` passes
   * without one (then the generator just ends). No deadline when `timeoutMs` is undefined.
   */
  async *events(jid: string, timeoutMs?: number): AsyncGenerator<RunnerEvent> {
    const prefix = `salt/run/${jid}/`;
    const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
    while (Date.now() < deadline && !this.#closed) {
      const ev = await this.#next(Math.min(deadline, Date.now() + 3_600_000));
      if (!ev) continue;
      if (!ev.tag.startsWith(prefix)) continue;
      const suffix = ev.tag.slice(prefix.length);
      yield { suffix, data: ev.data };
      if (suffix === 'ret') return;
    }
  }

  async close(): Promise<void> {
    this.#listener?.close();
    this.#req.close();
  }
}
