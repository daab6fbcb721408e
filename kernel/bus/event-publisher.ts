/**
 * The bus's publisher (Salt's `EventPublisher`): pulls every fired frame, checks it against
 * `max_event_size` (see event-guard.ts), numbers it per subscribed prefix (bus-sequence.ts)
 * and publishes it on an XPUB socket.
 *
 * Slow subscribers: ZeroMQ keeps a queue per subscriber connection, bounded by the send
 * high-water mark ({@link SUBSCRIBER_HWM} events). When a subscriber's queue is full, the
 * events for that subscriber only are dropped; the publisher never waits, so neither the
 * master nor the other subscribers notice. The subscriber sees the gap in the numbers, knows
 * how many it missed, and reports it (`tsalt/bus/lag`); the publisher keeps those reports
 * and its own counters for `salt-run bus.stats`.
 */
import { Pull, XPublisher } from 'zeromq';
import { decodeEventBody } from '../serial/index.js';
import { bindOrFail } from './address.js';
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

/** Events a subscriber may have queued in the publisher before ZeroMQ drops for it. */
export const SUBSCRIBER_HWM = 10_000;
const MAX_LAGGING = 1000;
/** Frames waiting for the XPUB socket itself (it never blocks, so this stays near empty). */
const MAX_PENDING = 100_000;
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
      this.#inWindow = 0;
      this.#suppressed = 0;
      this.#inWindow++;
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

/** Binds the bus and forwards every pulled frame to subscribers until closed. */
export class EventPublisher {
  readonly #pull = new Pull();
  readonly #pub: XPublisher;
  readonly #counters = new SubscriptionCounters();
  readonly #max: number;
  readonly #hwm: number;
  readonly #log: BusLogger | undefined;
  readonly #limiter = new LogLimiter();
  readonly #lagging = new Map<string, SubscriberStats>();
  readonly #started = Date.now();
  /** Frames waiting for the socket (zeromq.js allows one send at a time). */
  #pending: Buffer[][] = [];
  #flushing = false;
  #running = false;
  #in = 0;
  #bytesIn = 0;
  #out = 0;
  #trimmed = 0;
  #backlogMax = 0;
  readonly #dropped: Record<string, number> = {};

  constructor(opts: EventPublisherOptions = {}) {
    this.#max = opts.maxEventSize ?? 1048576;
    this.#hwm = opts.subscriberHwm ?? SUBSCRIBER_HWM;
    this.#log = opts.log;
    this.#pub = new XPublisher({ sendHighWaterMark: this.#hwm, verbosity: 'allSubsUnsubs' });
  }

  async bind(addrs: EventBusAddresses): Promise<void> {
    await bindOrFail(this.#pub, addrs.pub);
    await bindOrFail(this.#pull, addrs.pull);
  }

  /** Forwards frames; resolves when closed. */
  async run(): Promise<void> {
    this.#running = true;
    const subs = this.#watchSubscriptions();
    try {
      for await (const frames of this.#pull) {
        const [frame] = frames;
        if (frame) this.#accept(frame);
      }
    } catch (err) {
      if (this.#running) throw err;
    }
    await subs;
  }

  async #watchSubscriptions(): Promise<void> {
    try {
      for await (const [msg] of this.#pub) if (msg) this.#counters.onSubscription(msg);
    } catch (err) {
      if (this.#running) this.#log?.error({ err }, 'event bus: reading subscriptions failed');
    }
  }

  #accept(frame: Buffer): void {
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

  #publish(frame: Buffer): void {
    if (this.#pending.length >= MAX_PENDING) {
      this.#dropped.backlog = (this.#dropped.backlog ?? 0) + 1;
      return;
    }
    this.#pending.push([frame, this.#counters.stamp(frame)]);
    if (this.#pending.length > this.#backlogMax) this.#backlogMax = this.#pending.length;
    if (!this.#flushing) void this.#flush();
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#pending.length > 0) {
        const msg = this.#pending.shift() as Buffer[];
        try {
          await this.#pub.send(msg);
          this.#out++;
        } catch (err) {
          if (!this.#running) return;
          this.#log?.error({ err }, 'event bus: publishing failed');
        }
      }
    } finally {
      this.#flushing = false;
    }
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
      backlog: this.#pending.length,
      backlog_max: this.#backlogMax,
      trimmed: this.#trimmed,
      dropped: { ...this.#dropped },
      subscriptions: this.#counters.list(),
      lagging: [...this.#lagging.values()],
    };
  }

  close(): void {
    this.#running = false;
    this.#pull.close();
    this.#pub.close();
  }
}
