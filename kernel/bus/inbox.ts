/**
 * Messages a socket has received, waiting for their one reader: bounded (a message that finds
 * it full is dropped and counted, as a libzmq socket at its receive high-water mark drops),
 * read one at a time, optionally with a timeout.
 */
export class Inbox<T> {
  readonly #max: number;
  #items: T[] = [];
  #head = 0;
  #waiter: ((item: T | undefined) => void) | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #dropped = 0;

  constructor(max: number) {
    this.#max = max;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Messages dropped because the inbox was full. */
  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    if (this.#closed) return;
    const waiter = this.#waiter;
    if (waiter) {
      this.#takeWaiter();
      waiter(item);
      return;
    }
    if (this.size >= this.#max) {
      this.#dropped++;
      return;
    }
    this.#items.push(item);
  }

  /**
   * The next message; `undefined` once the inbox is closed, or when `timeoutMs` passed
   * first. One read at a time.
   */
  take(timeoutMs?: number): Promise<T | undefined> {
    if (this.#waiter) return Promise.reject(new Error('Inbox: a read is already waiting'));
    if (this.size > 0) return Promise.resolve(this.#shift());
    if (this.#closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      this.#waiter = resolve;
      if (timeoutMs !== undefined) this.#timer = setTimeout(() => this.#takeWaiter()?.(undefined), timeoutMs);
    });
  }

  /** Ends every read: a waiting one resolves with `undefined`, queued messages are dropped. */
  close(): void {
    this.#closed = true;
    this.#items = [];
    this.#head = 0;
    this.#takeWaiter()?.(undefined);
  }

  /** Clears the waiter and its timer; returns the waiter that was there. */
  #takeWaiter(): ((item: T | undefined) => void) | undefined {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    return waiter;
  }

  #shift(): T {
    const item = this.#items[this.#head] as T;
    this.#items[this.#head] = undefined as T;
    this.#head++;
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
