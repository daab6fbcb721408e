/**
 * netapi's connection to its master, shared by every request: a small pool of REQ channels
 * for the clear `publish`, `runner` and `wheel` commands (sent with the master's own user key,
 * as the master's internal clients do: authorization already happened in netapi), and one
 * listener on the master event bus that hands job returns to the requests waiting for them
 * and every event to the SSE/WebSocket streams.
 */
import { readFile } from 'node:fs/promises';
import { userInfo } from 'node:os';
import { userKeyPath } from '../../client/user-key-path.js';
import type { ResolvedMasterConfig, SaltEvent } from '../../kernel/index.js';
import {
  connectHost,
  EventFirer,
  EventListener,
  masterEventAddresses,
  ReqClient,
  tcpAddress,
} from '../../kernel/services.js';
import { type Logger, packNetwork, unpackNetwork } from '../../kernel/util.js';
import { NETAPI_ERR_MASTER } from './errors.js';

export interface PublishArgs {
  tgt: unknown;
  fun: string | string[];
  arg: unknown[];
  tgtType: string;
  user: string;
  ret?: string;
  kwargs?: Record<string, unknown>;
}

export interface PublishResult {
  jid: string | null;
  minions: string[];
  missing: string[];
  error?: string;
}

type EventFn = (ev: SaltEvent) => void;

const JOB_TAG = /^salt\/(job|run|wheel)\/(\d{20}(?:_\d+)?)\/(.+)$/;
const RECENT_JIDS = 5000;
const KNOWN_USERS = 100_000;

export class MasterLink {
  readonly #config: ResolvedMasterConfig;
  readonly #log: Logger;
  readonly #reqs: ReqClient[];
  #next = 0;
  #key: string | undefined;
  #listener: EventListener | undefined;
  #loop: Promise<void> | undefined;
  #firer: EventFirer | undefined;
  readonly #waiters = new Map<string, Set<EventFn>>();
  readonly #recent = new Map<string, SaltEvent[]>();
  readonly #subscribers = new Set<EventFn>();
  readonly #jobUsers = new Map<string, string>();

  constructor(config: ResolvedMasterConfig, log: Logger, poolSize = 8) {
    this.#config = config;
    this.#log = log;
    const addr = tcpAddress(connectHost(config.interface), config.ret_port);
    this.#reqs = Array.from(
      { length: poolSize },
      () => new ReqClient(addr, { timeoutMs: Math.max(10_000, config.timeout * 1000), tries: 1 }),
    );
  }

  /** Subscribes to the master bus; resolves once the subscription is live. */
  async start(timeoutMs = 10_000): Promise<void> {
    const listener = new EventListener(masterEventAddresses(this.#config.sock_dir), ['']);
    this.#listener = listener;
    await listener.ready(timeoutMs).catch((err: Error) => {
      throw new NETAPI_ERR_MASTER(
        `the master event bus does not answer (is the salt-master running?): ${err.message}`,
      );
    });
    this.#loop = (async () => {
      for await (const ev of listener) this.#dispatch(ev);
    })().catch((err) => this.#log.error({ err }, 'netapi: master event listener failed'));
  }

  #dispatch(ev: SaltEvent): void {
    const m = JOB_TAG.exec(ev.tag);
    if (m) {
      const jid = m[2] as string;
      if (m[3] === 'new' && typeof ev.data.user === 'string') {
        this.#jobUsers.set(jid, ev.data.user);
        if (this.#jobUsers.size > KNOWN_USERS) {
          const first = this.#jobUsers.keys().next().value;
          if (first !== undefined) this.#jobUsers.delete(first);
        }
      }
      const waiters = this.#waiters.get(jid);
      if (waiters) for (const fn of waiters) fn(ev);
      else if (m[1] !== 'job' || (m[3] ?? '').startsWith('ret/')) this.#remember(jid, ev);
    }
    for (const fn of this.#subscribers) {
      try {
        fn(ev);
      } catch (err) {
        this.#log.warn({ err }, 'netapi: event subscriber failed');
      }
    }
  }

  /** Keeps events of jobs nobody waits for yet (a return may beat the publish reply). */
  #remember(jid: string, ev: SaltEvent): void {
    const list = this.#recent.get(jid);
    if (list) {
      if (list.length < 10_000) list.push(ev);
      return;
    }
    this.#recent.set(jid, [ev]);
    if (this.#recent.size > RECENT_JIDS) {
      const first = this.#recent.keys().next().value;
      if (first !== undefined) this.#recent.delete(first);
    }
  }

  /** Calls `fn` with every event of job `jid` (including those already seen); returns the unsubscribe. */
  watchJob(jid: string, fn: EventFn): () => void {
    let set = this.#waiters.get(jid);
    if (!set) {
      set = new Set();
      this.#waiters.set(jid, set);
    }
    set.add(fn);
    const early = this.#recent.get(jid);
    if (early) {
      this.#recent.delete(jid);
      for (const ev of early) fn(ev);
    }
    return () => {
      const s = this.#waiters.get(jid);
      s?.delete(fn);
      if (s && s.size === 0) this.#waiters.delete(jid);
    };
  }

  /** Every event of the bus; returns the unsubscribe. */
  subscribe(fn: EventFn): () => void {
    this.#subscribers.add(fn);
    return () => this.#subscribers.delete(fn);
  }

  get subscriberCount(): number {
    return this.#subscribers.size;
  }

  /** Who started job `jid`, when its `new` event was seen. */
  jobUser(jid: string): string | undefined {
    return this.#jobUsers.get(jid);
  }

  /** Fires an event on the master bus. */
  fire(tag: string, data: Record<string, unknown>): void {
    this.#firer ??= new EventFirer(masterEventAddresses(this.#config.sock_dir));
    this.#firer.fire(tag, data);
  }

  async #userKey(reload = false): Promise<string> {
    if (this.#key && !reload) return this.#key;
    const user = userInfo().username;
    try {
      this.#key = (await readFile(userKeyPath(this.#config.cachedir, user), 'utf8')).trim();
      return this.#key;
    } catch {
      throw new NETAPI_ERR_MASTER(
        `cannot read the master's key for user ${user} in ${this.#config.cachedir}: netapi must run as the master's user on the master host`,
      );
    }
  }

  #req(): ReqClient {
    const r = this.#reqs[this.#next % this.#reqs.length] as ReqClient;
    this.#next++;
    return r;
  }

  /** Sends a clear command with the user key; retries once with a re-read key (master restarted). */
  async #clear(load: Record<string, unknown>): Promise<Record<string, unknown>> {
    for (let attempt = 0; ; attempt++) {
      const key = await this.#userKey(attempt > 0);
      let frame: Buffer;
      try {
        frame = await this.#req().request(packNetwork({ enc: 'clear', load: { ...load, key }, version: 3 }));
      } catch {
        throw new NETAPI_ERR_MASTER('Salt request timed out. The master is not responding.');
      }
      const reply = unpackNetwork(frame) as Record<string, unknown> | string;
      if (typeof reply === 'string') throw new NETAPI_ERR_MASTER(`the master refused: ${reply}`);
      const body = (reply.load && typeof reply.load === 'object' ? reply.load : reply) as Record<
        string,
        unknown
      >;
      const e = body.error as { name?: string; message?: string } | string | undefined;
      if (e && typeof e === 'object' && e.name === 'AuthenticationError' && attempt === 0) continue;
      return body;
    }
  }

  static errorText(e: unknown): string {
    if (typeof e === 'string') return e;
    const o = e as { name?: string; message?: string };
    return `${o.name ?? 'Error'}: ${o.message ?? ''}`;
  }

  /** A clear `publish`; a target matching nothing gives `jid: null` with the master's reason. */
  async publish(a: PublishArgs): Promise<PublishResult> {
    const body = await this.#clear({
      cmd: 'publish',
      tgt: a.tgt,
      fun: a.fun,
      arg: a.arg,
      tgt_type: a.tgtType,
      ret: a.ret ?? '',
      jid: '',
      kwargs: { show_timeout: true, show_jid: false, delimiter: ':', ...a.kwargs },
      user: a.user,
    });
    const minions = Array.isArray(body.minions) ? body.minions.map(String) : [];
    const missing = Array.isArray(body.missing) ? body.missing.map(String) : [];
    if (body.error && !body.jid) {
      return { jid: null, minions, missing, error: MasterLink.errorText(body.error) };
    }
    if (body.error) throw new NETAPI_ERR_MASTER(MasterLink.errorText(body.error));
    return { jid: body.jid ? String(body.jid) : null, minions, missing };
  }

  /** Starts a runner; resolves with `{tag, jid}`. */
  async runner(fun: string, arg: unknown[], kwarg: Record<string, unknown>, user: string) {
    const body = await this.#clear({ cmd: 'runner', fun, arg, kwarg, user });
    if (body.error) throw new NETAPI_ERR_MASTER(MasterLink.errorText(body.error));
    if (typeof body.jid !== 'string') throw new NETAPI_ERR_MASTER('the master did not start the runner');
    return { tag: String(body.tag ?? `salt/run/${body.jid}`), jid: body.jid };
  }

  /** Runs a wheel function; resolves with Salt's `{tag, data}`. */
  async wheel(fun: string, arg: unknown[], kwarg: Record<string, unknown>, user: string) {
    const body = await this.#clear({ cmd: 'wheel', fun, arg, kwarg, user });
    if (body.error) throw new NETAPI_ERR_MASTER(MasterLink.errorText(body.error));
    return { tag: String(body.tag ?? ''), data: (body.data ?? {}) as Record<string, unknown> };
  }

  async close(): Promise<void> {
    this.#listener?.close();
    await this.#loop;
    for (const r of this.#reqs) r.close();
    await this.#firer?.close();
  }
}
