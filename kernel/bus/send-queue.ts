/**
 * zeromq.js allows one pending `send` per socket; this queues sends from many async callers
 * and keeps their order. A bounded queue drops (and counts) instead of growing without end.
 */
export interface Sender {
  send(msg: Buffer | Buffer[] | string): Promise<void>;
}

export class SendQueue {
  readonly #sock: Sender;
  readonly #max: number;
  readonly #pending: (Buffer | Buffer[])[] = [];
  #flushing = false;
  #dropped = 0;
  #onError: (err: unknown) => void;

  constructor(sock: Sender, opts: { maxQueued?: number; onError?: (err: unknown) => void } = {}) {
    this.#sock = sock;
    this.#max = opts.maxQueued ?? 100_000;
    this.#onError = opts.onError ?? (() => undefined);
  }

  /** Messages dropped because the queue was full or the socket failed. */
  get dropped(): number {
    return this.#dropped;
  }

  get size(): number {
    return this.#pending.length;
  }

  /** Queues a message; never throws and never blocks the caller. */
  push(msg: Buffer | Buffer[]): void {
    if (this.#pending.length >= this.#max) {
      this.#dropped++;
      return;
    }
    this.#pending.push(msg);
    if (!this.#flushing) void this.#flush();
  }

  async #flush(): Promise<void> {
    this.#flushing = true;
    try {
      while (this.#pending.length > 0) {
        const msg = this.#pending.shift() as Buffer | Buffer[];
        try {
          await this.#sock.send(msg);
        } catch (err) {
          this.#dropped++;
          this.#onError(err);
        }
      }
    } finally {
      this.#flushing = false;
    }
  }

  /** Resolves when everything queued so far has been handed to the socket. */
  async drain(timeoutMs = 2000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.#pending.length > 0 || this.#flushing) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
