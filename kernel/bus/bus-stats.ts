/** The bus's own events and the counters the publisher keeps (`salt-run bus.stats`). */

/** A subscriber reports the events it missed (at most once a second while it misses some). */
export const LAG_TAG = 'tsalt/bus/lag';
/** Ask the publisher for its counters; it answers with {@link STATS_TAG}. */
export const STATS_REQUEST_TAG = 'tsalt/bus/stats/request';
/** The publisher's counters, as an event (data: {@link BusStats} and the request's `id`). */
export const STATS_TAG = 'tsalt/bus/stats';

/** The data of a `tsalt/bus/lag` event. */
export interface LagReport {
  /** The subscriber's name (its program unless given) and process id. */
  name: string;
  pid: number;
  prefixes: string[];
  /** Events it received and events it is known to have missed, since it connected. */
  received: number;
  missed: number;
  /** Missed since its previous report. */
  new_missed: number;
  reason: 'subscriber-queue-full';
}

/** One subscriber as the publisher last heard of it. */
export interface SubscriberStats extends LagReport {
  /** ISO time of its last report. */
  reported: string;
}

export interface BusStats {
  pid: number;
  /** Resident memory of the publisher process, bytes. */
  rss: number;
  uptime_s: number;
  max_event_size: number;
  /** Events each subscriber may have waiting in the publisher before ZeroMQ drops for it. */
  subscriber_hwm: number;
  events_in: number;
  bytes_in: number;
  events_out: number;
  /** Frames waiting for the publishing socket now, and the most there ever were. */
  backlog: number;
  backlog_max: number;
  /** Events delivered with values trimmed, and events dropped by reason. */
  trimmed: number;
  dropped: Record<string, number>;
  /** Live tag-prefix subscriptions: how many sockets hold each, events that matched it. */
  subscriptions: Array<{ prefix: string; subscribers: number; events: number }>;
  /** Subscribers that reported missed events (at most the last 1000). */
  lagging: SubscriberStats[];
}
