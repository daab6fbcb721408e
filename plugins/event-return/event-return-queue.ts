/**
 * Salt's `event_return`: every bus event whose tag passes the white/black lists is queued and
 * handed in batches to each configured returner's `eventReturn`. A batch goes out when the
 * queue reaches `event_return_queue` events, or after `flushMs` of quiet, and once more on stop.
 * A returner that fails keeps its batch for the next flush (bounded: the oldest events are
 * dropped past `maxBuffered`, with a logged count), and never holds back the others.
 */
import type { SaltEvent, UnitLogger } from '../../kernel/index.js';
import { globMatch } from '../../kernel/util.js';

/** One destination: a returner's `eventReturn`, named for the logs. */
export interface EventSink {
  name: string;
  send(events: readonly SaltEvent[]): Promise<void>;
}

export interface EventReturnQueueOptions {
  sinks: readonly EventSink[];
  /** Salt's `event_return_queue`: events per batch (0: each event on its own). */
  batchSize: number;
  whitelist: readonly string[];
  blacklist: readonly string[];
  /** Flush a partial batch after this long. */
  flushMs?: number;
  /** Events kept per sink while it fails. */
  maxBuffered?: number;
  log: UnitLogger;
}

/** Whether `tag` goes to event_return: Salt's fnmatch white/black lists. */
export function eventTagSelected(
  tag: string,
  whitelist: readonly string[],
  blacklist: readonly string[],
): boolean {
  if (whitelist.length > 0 && !whitelist.some((p) => globMatch(p, tag))) return false;
  return !blacklist.some((p) => globMatch(p, tag));
}

export class EventReturnQueue {
  readonly #opts: EventReturnQueueOptions;
  readonly #pending = new Map<string, SaltEvent[]>();
  #timer: NodeJS.Timeout | undefined;
  #flushing: Promise<void> = Promise.resolve();
  #dropped = 0;

  constructor(opts: EventReturnQueueOptions) {
    this.#opts = opts;
    for (const sink of opts.sinks) this.#pending.set(sink.name, []);
  }

  /** Queues one event (if its tag is selected); may start a flush. */
  push(event: SaltEvent): void {
    if (!eventTagSelected(event.tag, this.#opts.whitelist, this.#opts.blacklist)) return;
    const max = this.#opts.maxBuffered ?? 10_000;
    for (const queue of this.#pending.values()) {
      queue.push(event);
      if (queue.length > max) {
        queue.splice(0, queue.length - max);
        this.#dropped++;
      }
    }
    const size = Math.max(1, this.#opts.batchSize);
    const longest = Math.max(0, ...[...this.#pending.values()].map((q) => q.length));
    if (longest >= size) void this.flush();
    else if (!this.#timer) {
      this.#timer = setTimeout(() => void this.flush(), this.#opts.flushMs ?? 1000);
      this.#timer.unref();
    }
  }

  /** Sends what is queued; resolves when every sink has answered. Flushes never overlap. */
  flush(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#flushing = this.#flushing.then(() => this.#flushOnce());
    return this.#flushing;
  }

  async #flushOnce(): Promise<void> {
    if (this.#dropped > 0) {
      this.#opts.log.warn({ dropped: this.#dropped }, 'event_return fell behind: oldest events dropped');
      this.#dropped = 0;
    }
    await Promise.all(
      this.#opts.sinks.map(async (sink) => {
        const queue = this.#pending.get(sink.name) ?? [];
        if (queue.length === 0) return;
        const batch = queue.splice(0, queue.length);
        try {
          await sink.send(batch);
        } catch (err) {
          queue.unshift(...batch);
          this.#opts.log.error(
            { returner: sink.name, events: batch.length, err: (err as Error).message },
            `event_return ${sink.name} failed: ${(err as Error).message}; ${batch.length} events kept for the next try`,
          );
        }
      }),
    );
  }
}
