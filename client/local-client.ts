/**
 * LocalClient: what the `salt` CLI (and later salt-api) uses on the master host. It listens on
 * the master event bus, sends a clear `publish` with the local user key, and collects returns
 * until every expected minion answered or the `saltutil.find_job` check says nobody is still
 * running the job (PROTOCOL.md §9).
 */

import { EventFirer, type EventListener, masterEventAddresses } from '../kernel/bus/event-bus.js';
import type { ReqClient } from '../kernel/bus/req-client.js';
import type { ResolvedMasterConfig } from '../kernel/config/index.js';
import { SaltError } from '../kernel/errors.js';
import { returnerNames } from '../kernel/jobs/returner-calls.js';
import type { JobReturn, SaltEvent } from '../kernel/jobs/types.js';
import { packNetwork, unpackNetwork } from '../kernel/serial/index.js';
import {
  listenToMasterBus,
  masterRequestClient,
  ownUserName,
  readOwnUserKey,
  SALT_ERR_CLIENT_PUBLISH,
} from './master-access.js';

export interface PublishOptions {
  tgt: string | string[];
  fun: string | string[];
  arg: unknown[];
  tgtType?: string;
  ret?: string;
  jid?: string;
  kwargs?: Record<string, unknown>;
  delimiter?: string;
}

export interface PublishReply {
  jid: string;
  minions: string[];
  missing: string[];
}

export type NoReturnReason = 'No response' | 'Not connected';

/** What the collector yields: a return, or a minion given up on. */
export type CollectedReturn = { id: string; ret: JobReturn } | { id: string; noReturn: NoReturnReason };

export { SALT_ERR_CLIENT_PUBLISH };

/** What {@link LocalClient.nextEvent}'s deadline resolves with. */
const TIMED_OUT: unique symbol = Symbol('timed out');

export class LocalClient {
  readonly #config: ResolvedMasterConfig;
  readonly #req: ReqClient;
  #listener: EventListener | undefined;
  #events: AsyncIterator<SaltEvent> | undefined;
  #pending: Promise<SaltEvent | undefined> | undefined;
  #firer: EventFirer | undefined;
  #waiting: { jid: string; outstanding: ReadonlySet<string> } | undefined;
  #deadline: { at: number; promise: Promise<typeof TIMED_OUT>; timer: NodeJS.Timeout } | undefined;

  constructor(config: ResolvedMasterConfig) {
    this.#config = config;
    this.#req = masterRequestClient(config);
  }

  /** Subscribes to job events; resolves when the subscription is live. */
  async listen(): Promise<void> {
    if (this.#listener) return;
    this.#listener = await listenToMasterBus(this.#config, ['salt/job/']);
    this.#events = this.#listener[Symbol.asyncIterator]();
  }

  /** Sends a publish request; resolves with the master's answer. */
  async publish(opts: PublishOptions): Promise<PublishReply> {
    const load: Record<string, unknown> = {
      cmd: 'publish',
      tgt: opts.tgt,
      fun: opts.fun,
      arg: opts.arg,
      key: await readOwnUserKey(this.#config, 'publish'),
      tgt_type: opts.tgtType ?? 'glob',
      // Salt's LocalClient adds the master's ext_job_cache to every job's returners.
      ret: returnerNames(opts.ret, this.#config.ext_job_cache).join(','),
      jid: opts.jid ?? '',
      kwargs: { show_timeout: true, show_jid: false, delimiter: opts.delimiter ?? ':', ...opts.kwargs },
      user: ownUserName(),
    };
    let replyFrame: Buffer;
    try {
      replyFrame = await this.#req.request(packNetwork({ enc: 'clear', load, version: 3 }));
    } catch {
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, 'Salt request timed out. The master is not responding.');
    }
    const reply = unpackNetwork(replyFrame) as Record<string, unknown> | string;
    if (typeof reply === 'string')
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, `the master refused the publish: ${reply}`);
    const body = (reply.load ?? reply) as Record<string, unknown>;
    if (body.error) {
      const e = body.error as { name?: string; message?: string } | string;
      throw new SaltError(SALT_ERR_CLIENT_PUBLISH, typeof e === 'string' ? e : `${e.name}: ${e.message}`);
    }
    if (!body.jid)
      throw new SaltError(
        SALT_ERR_CLIENT_PUBLISH,
        'No minions matched the target. No command was sent, no jid was assigned.',
      );
    return {
      jid: String(body.jid),
      minions: (body.minions as string[]) ?? [],
      missing: (body.missing as string[]) ?? [],
    };
  }

  /**
   * Next event from the bus, or undefined when `deadline` passes first. One read of the bus is
   * outstanding at a time and survives a timeout, so no event is delayed or reordered.
   */
  async nextEvent(deadline: number): Promise<SaltEvent | undefined> {
    const events = this.#events;
    if (!events) throw new Error('listen() first');
    this.#pending ??= events.next().then((r) => (r.done ? undefined : r.value));
    const winner = await Promise.race([this.#pending, this.#deadlineWait(deadline)]);
    if (winner === TIMED_OUT) {
      this.#clearDeadline();
      return undefined;
    }
    if (winner === undefined) {
      // the bus closed: nothing more will come; wait out the deadline instead of spinning
      this.#clearDeadline();
      await new Promise((r) => setTimeout(r, Math.max(0, deadline - Date.now())));
      return undefined;
    }
    this.#pending = undefined;
    return winner;
  }

  /**
   * A promise of {@link TIMED_OUT} at `deadline`, kept for the calls that wait for the same one: a
   * collect waits for ten returns with one timer, not ten (a timer of a new length each time,
   * which Node keeps in a list of its own). {@link #clearDeadline} ends it.
   */
  #deadlineWait(deadline: number): Promise<typeof TIMED_OUT> {
    const held = this.#deadline;
    if (held?.at === deadline) return held.promise;
    this.#clearDeadline();
    let timer: NodeJS.Timeout | undefined;
    const promise = new Promise<typeof TIMED_OUT>((r) => {
      // the bus connection keeps the process alive while an event is awaited; this timer need not
      timer = setTimeout(() => r(TIMED_OUT), Math.max(0, deadline - Date.now())).unref();
    });
    this.#deadline = { at: deadline, promise, timer: timer as NodeJS.Timeout };
    return promise;
  }

  #clearDeadline(): void {
    if (this.#deadline) clearTimeout(this.#deadline.timer);
    this.#deadline = undefined;
  }

  /**
   * Collects the returns of `jid` from `expected` minions, yielding each as it arrives, then
   * each minion given up on. `timeout`/`gatherJobTimeout` are seconds.
   */
  async *collect(
    pub: PublishReply,
    opts: { timeout: number; gatherJobTimeout: number },
  ): AsyncGenerator<CollectedReturn> {
    const outstanding = new Set(pub.minions);
    const prefix = `salt/job/${pub.jid}/ret/`;
    let deadline = Date.now() + opts.timeout * 1000;
    let findJob: { jid: string; until: number } | undefined;
    const running = new Set<string>();
    this.#waiting = { jid: pub.jid, outstanding };
    try {
      while (outstanding.size > 0) {
        const until = findJob ? Math.min(deadline, findJob.until) : deadline;
        const ev = await this.nextEvent(Math.max(until, Date.now() + 1));
        if (ev?.tag.startsWith(prefix)) {
          const id = ev.tag.slice(prefix.length);
          if (outstanding.delete(id)) yield { id, ret: ev.data as unknown as JobReturn };
          continue;
        }
        if (ev && findJob && ev.tag.startsWith(`salt/job/${findJob.jid}/ret/`)) {
          const data = ev.data as unknown as JobReturn;
          if (data.return && typeof data.return === 'object' && Object.keys(data.return).length > 0)
            running.add(String(data.id));
          continue;
        }
        if (ev) continue;
        const now = Date.now();
        if (findJob && now >= findJob.until) {
          const stillRunning = [...outstanding].filter((id) => running.has(id));
          findJob = undefined;
          if (stillRunning.length === 0) break;
          deadline = now + opts.timeout * 1000;
          running.clear();
          continue;
        }
        if (now >= deadline && !findJob) {
          // minions the master knows have no connection cannot answer find_job: stop waiting for them
          const state = await this.#connectionStates();
          const reachable = [...outstanding].filter((id) => state(id) !== 'Not connected');
          if (reachable.length === 0) break;
          try {
            const fj = await this.publish({
              tgt: reachable,
              fun: 'saltutil.find_job',
              arg: [pub.jid],
              tgtType: 'list',
            });
            findJob = { jid: fj.jid, until: Date.now() + opts.gatherJobTimeout * 1000 };
          } catch {
            break;
          }
        }
      }
    } finally {
      this.#clearDeadline();
    }
    this.#waiting = undefined;
    if (outstanding.size > 0) {
      const state = await this.#connectionStates();
      for (const id of outstanding) {
        const reason = state(id);
        await this.#recordEndState(pub.jid, id, reason);
        yield { id, noReturn: reason };
      }
    }
    // minions named in a list target that the master does not know, last, as Salt has them
    for (const id of pub.missing) yield { id, noReturn: 'No response' };
  }

  /**
   * Tells the master's job cache how a minion that did not return ended (`tsalt/job/end/...`).
   * This and {@link #connectionStates} load their modules only when a minion did not return.
   */
  async #recordEndState(jid: string, id: string, reason: NoReturnReason | 'running'): Promise<void> {
    const { END_STATE_TAG } = await import('../kernel/jobs/end-state.js');
    this.#firer ??= new EventFirer(masterEventAddresses(this.#config.sock_dir));
    const state =
      reason === 'running' ? 'running' : reason === 'Not connected' ? 'not_connected' : 'no_response';
    this.#firer.fire(`${END_STATE_TAG}${jid}/${id}`, { jid, id, state });
  }

  /**
   * The caller stops waiting (Ctrl-C): the minions still expected are recorded in the job cache
   * as still running when the client gave up. Resolves once the records are sent.
   */
  async abandon(): Promise<void> {
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting) for (const id of waiting.outstanding) await this.#recordEndState(waiting.jid, id, 'running');
    await this.close();
  }

  /**
   * Why minions did not return, from one read of the presence snapshot: "Not connected" when
   * the master's publisher knows one has no live connection (kernel/bus/presence.ts), else
   * "No response".
   */
  async #connectionStates(): Promise<(id: string) => NoReturnReason> {
    const { readPresence } = await import('../kernel/bus/presence.js');
    const snapshot = readPresence(this.#config.cachedir);
    const tracked = new Set(snapshot?.tracked);
    const present = new Set(snapshot?.present);
    return (id) => (tracked.has(id) && !present.has(id) ? 'Not connected' : 'No response');
  }

  /** Closes the sockets; end-state events still queued get a short while to leave. */
  async close(): Promise<void> {
    this.#clearDeadline();
    this.#listener?.close();
    this.#req.close();
    await this.#firer?.close();
  }
}
