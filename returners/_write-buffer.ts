/**
 * A bounded in-memory queue of writes a store could not take (a PostgreSQL or Redis server down,
 * the embedded job store's disk full or file gone): the oldest are dropped past the bound (with
 * a logged count), and the rest are written in order when the store answers again, on the next
 * call or from a retry timer. Shared by the built-in returners (`postgres`, `redis`, `job_store`).
 */
import type { UnitLogger } from '../kernel/index.js';

/** An error's text for a message (Node's AggregateError from a refused dual-stack connect has none). */
export function reasonOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message)
    return err.errors.map((e: unknown) => reasonOf(e)).join('; ') || 'connection failed';
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.constructor.name;
  return String(err);
}

export interface WriteBufferOptions<T> {
  /** The store's name, for log lines. */
  store: string;
  /** Most writes kept; older ones are dropped. */
  max: number;
  /** Milliseconds between retries while writes are pending. */
  retryMs: number;
  log: UnitLogger;
  /** Writes one pending item; throws when it cannot. */
  write(item: T): Promise<void>;
  /** Whether an error means "the store is unreachable" (keep the item) rather than "bad item" (drop it). */
  isDown(err: unknown): boolean;
}

export class WriteBuffer<T> {
  private readonly items: T[] = [];
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<boolean> | undefined;

  constructor(private readonly opts: WriteBufferOptions<T>) {}

  get size(): number {
    return this.items.length;
  }

  /** Queues a write, dropping the oldest past the bound, and arms the retry timer. */
  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.opts.max) {
      const over = this.items.length - this.opts.max;
      this.items.splice(0, over);
      this.dropped += over;
      if (this.dropped === over || this.dropped % 1000 < over)
        this.opts.log.error(
          { store: this.opts.store, dropped: this.dropped, kept: this.items.length },
          `${this.opts.store}: write buffer full, dropped the oldest pending writes`,
        );
    }
    this.arm();
  }

  /**
   * Writes every pending item in order. True when the buffer is empty afterwards; false when
   * the store is still down (the rest stays queued). Items refused for another reason are
   * logged and dropped.
   */
  flush(): Promise<boolean> {
    if (this.items.length === 0) return Promise.resolve(true);
    this.flushing ??= this.drain().finally(() => {
      this.flushing = undefined;
    });
    return this.flushing;
  }

  /** Stops the retry timer; returns how many writes are still pending (lost if the process ends). */
  stop(): number {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    return this.items.length;
  }

  private async drain(): Promise<boolean> {
    let written = 0;
    while (this.items.length > 0) {
      const item = this.items[0] as T;
      try {
        await this.opts.write(item);
        written++;
      } catch (err) {
        if (this.opts.isDown(err)) {
          this.arm();
          return false;
        }
        this.opts.log.error(
          { store: this.opts.store, err: (err as Error).message },
          `${this.opts.store}: a buffered write was refused and is dropped`,
        );
      }
      this.items.shift();
    }
    if (written > 0 || this.dropped > 0)
      this.opts.log.warn(
        { store: this.opts.store, written, dropped: this.dropped },
        `${this.opts.store}: store is back, buffered writes stored`,
      );
    this.dropped = 0;
    return true;
  }

  private arm(): void {
    if (this.timer || this.items.length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.opts.retryMs);
    this.timer.unref();
  }
}
