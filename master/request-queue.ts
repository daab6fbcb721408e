/**
 * The request server's intake: minion requests wait in a FIFO while the worker pool is at its
 * in-flight cap, and requests that carry no minion id (a user's `publish`, `runner`, `wheel`
 * from the CLI or the API) go to a worker at once. Without this, `salt '*' test.ping` during a
 * sign-in storm of 10,000 minions waited behind every queued `_auth` and `_pillar` and timed
 * out ("The master is not responding"). Past `maxBacklog` queued frames the reader is asked to
 * pause, and the rest waits in the sockets' buffers. The light requests the router thread handles
 * itself go through a second queue, paced per turn of the event loop (turn-pacer.ts).
 */
export interface Dispatcher {
  /** Undefined while a request may start; else resolves when one may. */
  whenAvailable(): Promise<void> | undefined;
}

interface Queued<N> {
  envelope: Buffer[];
  payload: Buffer;
  id: string;
  note: N | undefined;
}

/** Hands a request on: `note` is what the caller of {@link RequestQueue.offer} attached to it. */
type Dispatch<N> = (envelope: Buffer[], payload: Buffer, id: string | undefined, note: N | undefined) => void;

/** `N`: what a caller may attach to a request for the dispatcher (see request-server.ts). */
export class RequestQueue<N = never> {
  readonly #pool: Dispatcher;
  readonly #dispatch: Dispatch<N>;
  readonly #maxBacklog: number;
  #backlog: Queued<N>[] = [];
  #head = 0;
  #pumping = false;
  #resume: (() => void) | undefined;
  #paused: Promise<void> | undefined;
  #closed = false;

  constructor(pool: Dispatcher, dispatch: Dispatch<N>, opts: { maxBacklog?: number } = {}) {
    this.#pool = pool;
    this.#dispatch = dispatch;
    this.#maxBacklog = opts.maxBacklog ?? 20_000;
  }

  /** Minion requests waiting for a worker. */
  get backlog(): number {
    return this.#backlog.length - this.#head;
  }

  /**
   * Takes one request (`id`: its minion, read off the frame by `peekRequest`; undefined for a
   * user's command); returns a promise when the reader should pause until it resolves.
   */
  offer(envelope: Buffer[], payload: Buffer, id: string | undefined, note?: N): Promise<void> | undefined {
    if (id === undefined || (this.backlog === 0 && !this.#pool.whenAvailable())) {
      this.#dispatch(envelope, payload, id, note);
      return undefined;
    }
    this.#backlog.push({ envelope, payload, id, note });
    if (!this.#pumping) void this.#pump();
    if (this.backlog < this.#maxBacklog) return undefined;
    // one pause for every caller told to wait: a second promise must not orphan the first
    this.#paused ??= new Promise((resolve) => {
      this.#resume = resolve;
    });
    return this.#paused;
  }

  async #pump(): Promise<void> {
    this.#pumping = true;
    try {
      while (this.backlog > 0 && !this.#closed) {
        const wait = this.#pool.whenAvailable();
        if (wait) await wait;
        if (this.#closed) break;
        const next = this.#backlog[this.#head++] as Queued<N>;
        if (this.#head > 1024 && this.#head * 2 > this.#backlog.length) {
          this.#backlog = this.#backlog.slice(this.#head);
          this.#head = 0;
        }
        this.#dispatch(next.envelope, next.payload, next.id, next.note);
        if (this.#resume && this.backlog < this.#maxBacklog / 2) this.#release();
      }
    } finally {
      this.#pumping = false;
    }
  }

  /** Drops what is queued (the minions' REQ sockets retry) and lets a paused reader go. */
  close(): void {
    this.#closed = true;
    this.#backlog = [];
    this.#head = 0;
    this.#release();
  }

  #release(): void {
    this.#resume?.();
    this.#resume = undefined;
    this.#paused = undefined;
  }
}
