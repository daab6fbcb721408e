/**
 * The public client (`tsalt/client`, Salt's `salt.client.LocalClient`, `RunnerClient`,
 * `WheelClient` and `salt.utils.event` in one): publish a job and gather its returns, run a
 * runner or a wheel function, fire and listen to events, as the local master's user. For
 * scripts and third-party processes on the master's host; it holds the master config it was
 * opened with and reads the user key the master wrote for this user.
 *
 * @example
 * const salt = await SaltClient.open('/etc/salt');
 * console.log(await salt.cmd('web*', 'test.ping'));
 * console.log(await salt.wheel('key.list_all'));
 * await salt.close();
 */
import { EventFirer, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { SaltError } from '../kernel/errors.js';
import type { EventStream } from '../kernel/units/define.js';
import { LocalClient } from './local-client.js';
import { listenToMasterBus, SALT_ERR_CLIENT_PUBLISH } from './master-access.js';
import { RunnerClient } from './runner-client.js';

/** Options of {@link SaltClient.cmd}. */
export interface CmdOptions {
  /** Salt's `tgt_type`: `glob` (default), `list`, `grain`, `pcre`, `compound`, ... */
  tgtType?: string;
  kwarg?: Record<string, unknown>;
  /** Seconds to wait for returns (default: the master config's `timeout`). */
  timeout?: number;
}

/** A failed runner's or wheel function's return as an error with its code. */
function failure(data: Record<string, unknown>): SaltError {
  const code = typeof data.error_code === 'string' ? data.error_code : 'SALT_ERR_RUNNER';
  return new SaltError(code, String(data.return));
}

export class SaltClient {
  readonly config: ResolvedMasterConfig;
  #wheels: RunnerClient | undefined;
  #firer: EventFirer | undefined;
  readonly #streams = new Set<EventStream>();

  constructor(config: ResolvedMasterConfig) {
    this.config = config;
  }

  /** A client for the master whose config directory is `configDir`. */
  static async open(configDir: string): Promise<SaltClient> {
    const { loadConfig } = await import('../kernel/config/index.js');
    return new SaltClient((await loadConfig('master', configDir)).config);
  }

  /**
   * Runs `fun` on the minions `tgt` matches and resolves with each minion's return by id
   * (minions that did not return within the timeout, after Salt's `saltutil.find_job` check,
   * are left out, as Salt's `LocalClient.cmd` leaves them).
   */
  async cmd(
    tgt: string | string[],
    fun: string,
    arg: unknown[] = [],
    opts: CmdOptions = {},
  ): Promise<Record<string, unknown>> {
    const local = new LocalClient(this.config);
    try {
      await local.listen();
      const pub = await local.publish({ tgt, fun, arg, tgtType: opts.tgtType, kwargs: opts.kwarg });
      const out: Record<string, unknown> = {};
      const gathering = {
        timeout: opts.timeout ?? this.config.timeout,
        gatherJobTimeout: this.config.gather_job_timeout,
      };
      for await (const got of local.collect(pub, gathering)) if ('ret' in got) out[got.id] = got.ret.return;
      return out;
    } finally {
      await local.close();
    }
  }

  async #wheelClient(): Promise<RunnerClient> {
    this.#wheels ??= new RunnerClient(this.config);
    return this.#wheels;
  }

  /**
   * Runs a runner function and resolves with its return; a failed runner rejects with its
   * message and code (`SALT_ERR_RUNNER` when it gave none). Each call listens on its own, so
   * calls may overlap.
   */
  async runner(fun: string, arg: unknown[] = [], kwarg: Record<string, unknown> = {}): Promise<unknown> {
    const runners = new RunnerClient(this.config);
    try {
      await runners.listen();
      const { jid } = await runners.runner({ fun, arg, kwarg });
      for await (const ev of runners.events(jid)) {
        if (ev.suffix !== 'ret') continue;
        if (ev.data.success === false) throw failure(ev.data);
        return ev.data.return;
      }
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, `runner ${fun} (jid ${jid}) ended without a return`);
    } finally {
      await runners.close();
    }
  }

  /** Runs a wheel function and resolves with its return; a failed one rejects with its message. */
  async wheel(fun: string, arg: unknown[] = [], kwarg: Record<string, unknown> = {}): Promise<unknown> {
    const data = await (await this.#wheelClient()).wheel(fun, arg, kwarg);
    if (data.success === false) throw failure(data);
    return data.return;
  }

  /** Fires an event on the master bus. */
  fire(tag: string, data: Readonly<Record<string, unknown>>): void {
    this.#firer ??= new EventFirer(masterEventAddresses(this.config.sock_dir));
    this.#firer.fire(tag, { ...data });
  }

  /** The master bus's events whose tags start with one of `prefixes`, from the moment it resolves. */
  async events(prefixes: readonly string[]): Promise<EventStream> {
    const listener = await listenToMasterBus(this.config, prefixes);
    const stream: EventStream = {
      [Symbol.asyncIterator]: () => listener[Symbol.asyncIterator](),
      close: () => {
        this.#streams.delete(stream);
        listener.close();
      },
    };
    this.#streams.add(stream);
    return stream;
  }

  /** Closes every socket the client opened. */
  async close(): Promise<void> {
    for (const stream of this.#streams) stream.close();
    await this.#wheels?.close();
    await this.#firer?.close();
  }
}
