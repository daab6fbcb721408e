/**
 * The master (or minion) event bus over ipc: firers PUSH to `<prefix>_pull.ipc`, the event
 * publisher (event-publisher.ts) re-publishes each frame on `<prefix>_pub.ipc`, listeners SUB
 * by tag prefix. A message's first part is Salt's event body: `<tag>\n\n<msgpack(data)>`, so
 * ZeroMQ's prefix subscription is exactly Salt's tag-prefix matching; its second part numbers
 * it per subscribed prefix (bus-sequence.ts), so a listener knows how many events it missed
 * when it read too slowly. Every end speaks ZMTP itself (./zmtp/) over unix sockets: no
 * process loads libzmq for the bus, and a libzmq PUSH or SUB can still connect.
 */

import { basename } from 'node:path';
import type { SaltEvent } from '../jobs/types.js';
import { decodeEventBody } from '../serial/index.js';
import { ipcAddress, parseEndpoint } from './address.js';
import { GapTracker, readSequence } from './bus-sequence.js';
import { LAG_TAG, type LagReport } from './bus-stats.js';
import { stampedEventBody } from './event-body.js';
import { DROPPED_TAG, type GuardTrace, isEventMap, traceTag } from './event-guard.js';
import { Inbox } from './inbox.js';
import { unpinned } from './zmtp/frame.js';
import { ZmtpPusher } from './zmtp/push-socket.js';
import { ZmtpSubscriber } from './zmtp/sub-socket.js';

/** The first wait for a probe's echo; each retry waits twice as long, up to the maximum. */
const PROBE_FIRST_WAIT_MS = 5;
const PROBE_MAX_WAIT_MS = 25;
let probes = 0;

/**
 * A probe tag's unique part: the process, a count within it and a random part (another
 * process, even on another host sharing the socket folder, may have the same pid). Not a
 * UUID: node:crypto costs a short-lived CLI ~3 ms to load.
 */
function probeId(): string {
  probes++;
  return `${process.pid}-${probes}-${Math.random().toString(36).slice(2, 12)}`;
}

export interface EventBusAddresses {
  pub: string;
  pull: string;
}

/** The master bus's two ipc endpoints under `sock_dir`. */
export function masterEventAddresses(sockDir: string): EventBusAddresses {
  return {
    pub: ipcAddress(sockDir, 'master_event_pub.ipc'),
    pull: ipcAddress(sockDir, 'master_event_pull.ipc'),
  };
}

/** Fires events onto a bus. Never blocks the caller; frames queue while the bus is away. */
export class EventFirer {
  readonly #push: ZmtpPusher;

  constructor(addrs: EventBusAddresses) {
    this.#push = new ZmtpPusher({ ...parseEndpoint(addrs.pull), hwm: 100_000 });
  }

  /**
   * Fires `data` (a map) under `tag`, adding `_stamp`. Data that is not a map, or a tag that
   * is empty or holds `\n\n`, is not fired: a `tsalt/bus/dropped` event says so instead
   * (the publisher logs it). Size is checked by the publisher.
   */
  fire(tag: string, data: Record<string, unknown>): void {
    const bad: GuardTrace['reason'] | undefined =
      typeof tag !== 'string' || tag === '' || tag.includes('\n\n')
        ? 'bad-tag'
        : isEventMap(data)
          ? undefined
          : 'not-a-map';
    if (bad) {
      const trace: GuardTrace = { tag: traceTag(String(tag)), size: 0, reason: bad };
      this.#push.send(stampedEventBody(DROPPED_TAG, { ...trace }));
      return;
    }
    this.#push.send(stampedEventBody(tag, data));
  }

  /** Fires an already encoded event body. */
  fireRaw(body: Buffer): void {
    this.#push.send(body);
  }

  /** Gives what is not yet sent up to `lingerMs` to go, then stops. */
  async close(lingerMs = 1000): Promise<void> {
    await this.#push.close(lingerMs);
  }
}

export interface EventListenerOptions {
  /** Events this listener may hold unread before it drops them; default 100000. */
  hwm?: number;
  /** Its name in `tsalt/bus/lag` reports and `bus.stats`; default: the program's file name. */
  name?: string;
  /** Fire `tsalt/bus/lag` when events were missed (at most once a second); default true. */
  reportLag?: boolean;
}

/** A listener's own counters. */
export interface ListenerStats {
  received: number;
  /** Events the publisher numbered for our prefixes that never reached us. */
  missed: number;
}

/**
 * Listens to a bus for tags starting with the given prefixes. A listener that reads too
 * slowly loses events (its queue and its queue in the publisher are bounded); it counts them
 * from the publisher's numbers ({@link stats}) and reports them on the bus (`tsalt/bus/lag`).
 */
export class EventListener implements AsyncIterable<SaltEvent> {
  readonly #sub: ZmtpSubscriber;
  readonly #inbox: Inbox<Buffer[]>;
  readonly #addrs: EventBusAddresses;
  readonly #gaps: GapTracker;
  readonly #name: string;
  readonly #reportLag: boolean;
  #reporter: EventFirer | undefined;
  #reportedMissed = 0;
  #lastReport = 0;
  #reportTimer: NodeJS.Timeout | undefined;

  constructor(addrs: EventBusAddresses, prefixes: readonly string[], opts: EventListenerOptions = {}) {
    this.#addrs = addrs;
    this.#inbox = new Inbox(opts.hwm ?? 100_000);
    this.#sub = new ZmtpSubscriber({
      ...parseEndpoint(addrs.pub),
      // a queued part must not pin the socket read it was sliced from
      onMessage: (parts) => this.#inbox.push(parts.map(unpinned)),
    });
    this.#name = opts.name ?? basename(process.argv[1] ?? 'node');
    this.#reportLag = opts.reportLag ?? true;
    this.#gaps = new GapTracker(prefixes);
    for (const p of prefixes) this.#sub.subscribe(p);
    this.#sub.connect();
  }

  subscribe(prefix: string): void {
    this.#gaps.add(prefix);
    this.#sub.subscribe(prefix);
  }

  /** Events received and events missed so far. */
  get stats(): ListenerStats {
    return { received: this.#gaps.received, missed: this.#gaps.missed };
  }

  /**
   * Resolves once the subscription is live on the publisher (ZeroMQ subscriptions propagate
   * asynchronously): fires probe events until one comes back. Rejects after `timeoutMs`.
   * A probe sent before the subscription reached the publisher is lost, so the first retries
   * come soon (5 ms), then back off to one every {@link PROBE_MAX_WAIT_MS}: a late echo of any
   * probe counts (they share one tag), so waiting longer only bounds the probes in flight.
   */
  async ready(timeoutMs = 5000): Promise<void> {
    const tag = `tsalt/probe/${probeId()}`;
    this.#sub.subscribe(tag);
    const firer = new EventFirer(this.#addrs);
    const deadline = Date.now() + timeoutMs;
    let wait = PROBE_FIRST_WAIT_MS;
    let nextFire = 0;
    try {
      for (;;) {
        const now = Date.now();
        if (now >= nextFire) {
          if (now > deadline) {
            throw new Error(`event bus at ${this.#addrs.pub} did not answer`);
          }
          firer.fire(tag, {});
          nextFire = now + wait;
          wait = Math.min(PROBE_MAX_WAIT_MS, wait * 2);
        }
        // an event of another tag does not fire a probe: it only proves older subscriptions
        const parts = await this.#inbox.take(Math.max(1, nextFire - Date.now()));
        // closed meanwhile (close() during ready()): nothing will come
        if (!parts && this.#inbox.closed) throw new Error('event listener closed');
        if (parts?.[0]?.subarray(0, tag.length).toString() === tag) break;
      }
    } finally {
      this.#sub.unsubscribe(tag);
      // probes left unsent are of no use to anyone
      await firer.close(0);
    }
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SaltEvent> {
    for (let parts = await this.#inbox.take(); parts; parts = await this.#inbox.take()) {
      const [frame, seq] = parts;
      if (!frame) continue;
      let ev: { tag: string; data: unknown };
      try {
        ev = decodeEventBody(frame);
      } catch {
        continue;
      }
      // probes are numbered too: count their numbers before leaving them out (a late echo
      // of ready()'s probe lands here), but not as received events
      const probe = ev.tag.startsWith('tsalt/probe/');
      if (this.#gaps.observe(readSequence(seq), !probe) > 0) this.#lagged();
      if (probe) continue;
      yield { tag: ev.tag, data: (ev.data ?? {}) as Record<string, unknown> };
    }
  }

  /** Reports the missed events now, or within a second of the previous report. */
  #lagged(): void {
    if (!this.#reportLag || this.#reportTimer) return;
    const wait = this.#lastReport + 1000 - Date.now();
    if (wait <= 0) this.#report();
    else this.#reportTimer = setTimeout(() => this.#report(), wait).unref();
  }

  #report(): void {
    this.#reportTimer = undefined;
    if (this.#inbox.closed) return;
    this.#lastReport = Date.now();
    const missed = this.#gaps.missed;
    const report: LagReport = {
      name: this.#name,
      pid: process.pid,
      prefixes: this.#gaps.prefixes,
      received: this.#gaps.received,
      missed,
      new_missed: missed - this.#reportedMissed,
      reason: 'subscriber-queue-full',
    };
    this.#reportedMissed = missed;
    this.#reporter ??= new EventFirer(this.#addrs);
    this.#reporter.fire(LAG_TAG, { ...report });
  }

  close(): void {
    if (this.#reportTimer) clearTimeout(this.#reportTimer);
    this.#reportTimer = undefined;
    this.#sub.close();
    this.#inbox.close();
    const r = this.#reporter;
    this.#reporter = undefined;
    if (r) void r.close();
  }
}
