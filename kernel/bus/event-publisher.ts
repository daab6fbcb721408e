/**
 * The bus's publisher (Salt's `EventPublisher`): pulls every fired frame, checks it against
 * `max_event_size` (see event-guard.ts), numbers it per subscribed prefix (bus-sequence.ts)
 * and publishes it to every subscriber whose prefix matches. Both sockets are tsalt's own
 * ZMTP servers on unix sockets (./zmtp/pull-server.ts, ./zmtp/pub-server.ts); with `onPublish`
 * another listener of the pub path serves Salt's own IPC subscribers too (bus/salt-ipc-pub.ts).
 *
 * Slow subscribers: each subscriber connection may hold up to {@link SUBSCRIBER_HWM} events
 * unsent (the send high-water mark). When a subscriber's is full, the events for that
 * subscriber only are dropped; the publisher never waits, so neither the master nor the other
 * subscribers notice. The subscriber sees the gap in the numbers, knows how many it missed, and
 * reports it (`tsalt/bus/lag`); the publisher keeps those and its counters for `bus.stats`.
 */

import type { Socket } from 'node:net';
import { SALT_ERR_BUS_ADDRESS } from '../errors.js';
import { decodeEventBody } from '../serial/index.js';
import { parseEndpoint } from './address.js';
import { SubscriptionCounters } from './bus-sequence.js';
import {
  type BusStats,
  LAG_TAG,
  type LagReport,
  STATS_REQUEST_TAG,
  STATS_TAG,
  type SubscriberStats,
} from './bus-stats.js';
import { stampedEventBody } from './event-body.js';
import type { EventBusAddresses } from './event-bus.js';
import { DROPPED_TAG, type GuardTrace, guardFrame, TRIMMED_TAG } from './event-guard.js';
import { ZmtpPublisher } from './zmtp/pub-server.js';
import { ZmtpPuller } from './zmtp/pull-server.js';

/** Events a subscriber may have waiting in the publisher before they are dropped for it. */
export const SUBSCRIBER_HWM = 50_000;
/** And bytes: a stopped subscriber holds at most this much of the publisher's memory. */
const SUBSCRIBER_MAX_BYTES = 64 * 1024 * 1024;
const MAX_LAGGING = 1000;
/**
 * The largest frame a firer may send. Far above any `max_event_size`, so that an oversized
 * event is refused with a trace (event-guard.ts) rather than the firer's connection cut.
 */
const MAX_FIRED_BYTES = 256 * 1024 * 1024;
/** Prefixes one listener may subscribe to (its own, and its probes while they last). */
const MAX_PREFIXES_PER_LISTENER = 4096;
const BUS_PREFIX = Buffer.from('tsalt/bus/', 'utf8');

export interface BusLogger {
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface EventPublisherOptions {
  /** Salt's `max_event_size`; default 1048576. */
  maxEventSize?: number;
  log?: BusLogger;
  /** Per-subscriber queue bound, in events; default {@link SUBSCRIBER_HWM}. */
  subscriberHwm?: number;
  /** Every event body published; with it, `bind` leaves the pub path to its caller (`adopt`). */
  onPublish?: (frame: Buffer) => void;
}

/** Log lines for refused events: the first 10 of each second, then a count. */
class LogLimiter {
  #windowStart = 0;
  #inWindow = 0;
  #suppressed = 0;

  allow(): { ok: boolean; suppressed: number } {
    const now = Date.now();
    if (now - this.#windowStart >= 1000) {
      const suppressed = this.#suppressed;
      this.#windowStart = now;
      this.#inWindow = 1;
      this.#suppressed = 0;
      return { ok: true, suppressed };
    }
    if (this.#inWindow < 10) {
      this.#inWindow++;
      return { ok: true, suppressed: 0 };
    }
    this.#suppressed++;
    return { ok: false, suppressed: 0 };
  }
}

/** The path of an `ipc://` address. */
function ipcPath(address: string): string {
  const endpoint = parseEndpoint(address);
  if (endpoint.path === undefined) throw new SALT_ERR_BUS_ADDRESS(address);
  return endpoint.path;
}

/** Binds the bus and forwards every pulled frame to subscribers until closed. */
export class EventPublisher {
  readonly #pull: ZmtpPuller;
  readonly #pub: ZmtpPublisher;
  readonly #counters = new SubscriptionCounters();
  readonly #max: number;
  readonly #hwm: number;
  readonly #log: BusLogger | undefined;
  readonly #onPublish: ((frame: Buffer) => void) | undefined;
  readonly #limiter = new LogLimiter();
  readonly #lagging = new Map<string, SubscriberStats>();
  readonly #started = Date.now();
  #done: Promise<void> | undefined;
  #stopped: (() => void) | undefined;
  #in = 0;
  #bytesIn = 0;
  #out = 0;
  #trimmed = 0;
  readonly #dropped: Record<string, number> = {};

  constructor(opts: EventPublisherOptions = {}) {
    this.#max = opts.maxEventSize ?? 1048576;
    this.#hwm = opts.subscriberHwm ?? SUBSCRIBER_HWM;
    this.#log = opts.log;
    this.#onPublish = opts.onPublish;
    // a local process that broke the protocol is worth a line; a connection reset is not
    const onPeerError = (err: Error): void => {
      if ((err as { code?: string }).code === 'SALT_ERR_BUS_ZMTP')
        this.#log?.warn({ err: err.message }, 'event bus: a peer broke the protocol and was disconnected');
    };
    this.#pub = new ZmtpPublisher({
      sendHighWaterMark: this.#hwm,
      maxQueuedBytes: SUBSCRIBER_MAX_BYTES,
      reportEverySubscription: true,
      coalesce: true,
      maxTopicsPerPeer: MAX_PREFIXES_PER_LISTENER,
      onSubscription: (msg) => this.#counters.onSubscription(msg),
      onPeerError,
    });
    this.#pull = new ZmtpPuller({
      maxFrameBytes: MAX_FIRED_BYTES,
      onMessage: ([frame]) => {
        if (frame) this.accept(frame);
      },
      onPeerError,
    });
  }

  /** Binds both sockets; they must be `ipc://` addresses. */
  async bind(addrs: EventBusAddresses): Promise<void> {
    if (!this.#onPublish) await this.#pub.bindPath(ipcPath(addrs.pub));
    await this.#pull.bindPath(ipcPath(addrs.pull));
  }

  /** Resolves when closed (frames are forwarded from the moment both sockets are bound). */
  run(): Promise<void> {
    this.#done ??= new Promise<void>((resolve) => {
      this.#stopped = resolve;
    });
    return this.#done;
  }

  /** Takes one fired frame as if pulled: how the process that hosts the bus fires, without a socket. */
  accept(frame: Buffer): void {
    try {
      this.#take(frame);
    } catch (err) {
      // a bug of ours must not cut the firer's connection (and what it has in flight)
      this.#log?.error({ err }, 'event bus: an event could not be handled');
    }
  }

  #take(frame: Buffer): void {
    this.#in++;
    this.#bytesIn += frame.length;
    const verdict = guardFrame(frame, this.#max);
    if (verdict.action === 'dropped') {
      this.#dropped[verdict.trace.reason] = (this.#dropped[verdict.trace.reason] ?? 0) + 1;
      this.#refused(DROPPED_TAG, verdict.trace, 'dropped');
      return;
    }
    if (verdict.action === 'trimmed') {
      this.#trimmed++;
      this.#publish(verdict.frame);
      this.#refused(TRIMMED_TAG, verdict.trace, 'trimmed');
      return;
    }
    this.#publish(frame);
    if (
      frame.length > BUS_PREFIX.length &&
      frame.compare(BUS_PREFIX, 0, BUS_PREFIX.length, 0, BUS_PREFIX.length) === 0
    )
      this.#control(frame);
  }

  /** The bus's own events: lag reports, stats requests, refusals reported by firers. */
  #control(frame: Buffer): void {
    let ev: { tag: string; data: unknown };
    try {
      ev = decodeEventBody(frame);
    } catch {
      return;
    }
    const data = (ev.data ?? {}) as Record<string, unknown>;
    if (ev.tag === LAG_TAG) this.#onLag(data as unknown as LagReport);
    else if (ev.tag === STATS_REQUEST_TAG)
      this.#publish(stampedEventBody(STATS_TAG, { id: data.id ?? null, ...this.stats() }));
    else if (ev.tag === DROPPED_TAG) {
      // refused where it was fired (data not a map): say it in the master's log too
      this.#dropped[String(data.reason)] = (this.#dropped[String(data.reason)] ?? 0) + 1;
      this.#logRefusal(data as unknown as GuardTrace, 'dropped');
    }
  }

  #onLag(r: LagReport): void {
    if (typeof r.name !== 'string' || typeof r.pid !== 'number') return;
    const key = `${r.pid}/${r.name}`;
    this.#lagging.delete(key);
    this.#lagging.set(key, { ...r, reported: new Date().toISOString() });
    if (this.#lagging.size > MAX_LAGGING) {
      const oldest = this.#lagging.keys().next().value;
      if (oldest !== undefined) this.#lagging.delete(oldest);
    }
    this.#log?.warn(
      { subscriber: r.name, pid: r.pid, missed: r.missed, new_missed: r.new_missed, prefixes: r.prefixes },
      `event bus: subscriber ${r.name} (pid ${r.pid}) is too slow: ${r.new_missed} events dropped for it (queue full), ${r.missed} in all`,
    );
  }

  #refused(tag: string, trace: GuardTrace, what: 'dropped' | 'trimmed'): void {
    this.#logRefusal(trace, what);
    this.#publish(stampedEventBody(tag, { ...trace }));
  }

  #logRefusal(trace: GuardTrace, what: 'dropped' | 'trimmed'): void {
    const { ok, suppressed } = this.#limiter.allow();
    if (!ok || !this.#log) return;
    const why =
      trace.reason === 'not-a-map'
        ? 'its data is not a map'
        : trace.reason === 'forbidden-tag'
          ? "a minion may not fire into the master's namespaces"
          : trace.reason === 'too-large' || trace.reason === 'tag-too-large'
            ? `${trace.size} bytes is over max_event_size ${trace.max_event_size ?? this.#max}${trace.reason === 'tag-too-large' ? ' (the tag alone)' : ''}`
            : trace.reason;
    const verb = what === 'trimmed' ? 'trimmed large values of' : 'dropped';
    const from = trace.minion ? ` from minion ${trace.minion}` : '';
    const more = suppressed > 0 ? ` (${suppressed} more refusals not logged)` : '';
    this.#log.warn({ ...trace }, `event bus: ${verb} event ${trace.tag}${from}: ${why}${more}`);
  }

  /** Sends at once: a subscriber that is behind has the frame dropped for it alone. */
  /** A ZMTP subscriber's connection to the pub path, its first bytes read (`onPublish`). */
  adopt(socket: Socket, head: Buffer): void {
    this.#pub.adopt(socket, head);
  }

  #publish(frame: Buffer): void {
    this.#onPublish?.(frame);
    this.#pub.send([frame, this.#counters.stamp(frame)]);
    this.#out++;
  }

  stats(): BusStats {
    return {
      pid: process.pid,
      rss: process.memoryUsage.rss(),
      uptime_s: Math.round((Date.now() - this.#started) / 1000),
      max_event_size: this.#max,
      subscriber_hwm: this.#hwm,
      events_in: this.#in,
      bytes_in: this.#bytesIn,
      events_out: this.#out,
      // nothing waits in the publisher itself any more: it sends as it receives
      backlog: 0,
      backlog_max: 0,
      trimmed: this.#trimmed,
      dropped: { ...this.#dropped },
      subscriptions: this.#counters.list(),
      lagging: [...this.#lagging.values()],
    };
  }

  /** Stops; `run()` resolves once both sockets are closed. */
  close(): void {
    void this.run();
    void Promise.all([this.#pull.close(), this.#pub.close()]).finally(() => this.#stopped?.());
  }
}
