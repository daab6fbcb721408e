/**
 * A REQ channel client: one outstanding request at a time, further requests queued; a timed
 * out try closes and re-creates the socket and sends again (Salt's AsyncReqMessageClient).
 */
import { createRequire } from 'node:module';
import type * as Zmq from 'zeromq';
import { SALT_ERR_BUS_TIMEOUT } from '../errors.js';

// zeromq is CommonJS: require() it, because an ESM `import` makes Node scan its source for
// export names first, ~10 ms of every short-lived CLI's start (`salt`, `salt-run`)
const { Request } = createRequire(import.meta.url)('zeromq') as typeof Zmq;
type Request = Zmq.Request;

export interface ReqClientOptions {
  /** Per-try timeout. */
  timeoutMs: number;
  /** How many tries before giving up. */
  tries: number;
  /** Maximum reconnect interval (ms). */
  reconnectMaxMs?: number;
}

export class ReqClient {
  readonly #address: string;
  readonly #opts: ReqClientOptions;
  #sock: Request | undefined;
  /** The timeouts the current socket has (it is made with the default ones). */
  #timeoutSet: number | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(address: string, opts: ReqClientOptions) {
    this.#address = address;
    this.#opts = opts;
  }

  get address(): string {
    return this.#address;
  }

  #socket(): Request {
    if (!this.#sock) {
      this.#sock = new Request({
        linger: 0,
        receiveTimeout: this.#opts.timeoutMs,
        sendTimeout: this.#opts.timeoutMs,
        reconnectInterval: 100,
        reconnectMaxInterval: this.#opts.reconnectMaxMs ?? 5000,
      });
      this.#sock.connect(this.#address);
      this.#timeoutSet = this.#opts.timeoutMs;
    }
    return this.#sock;
  }

  #reset(): void {
    this.#sock?.close();
    this.#sock = undefined;
  }

  /** Sends one frame and resolves with the reply frame. Requests run one at a time, in order. */
  request(frame: Buffer, opts: { timeoutMs?: number; tries?: number } = {}): Promise<Buffer> {
    const run = async (): Promise<Buffer> => {
      const tries = opts.tries ?? this.#opts.tries;
      const timeoutMs = opts.timeoutMs ?? this.#opts.timeoutMs;
      for (let attempt = 1; ; attempt++) {
        if (this.#closed) throw new SALT_ERR_BUS_TIMEOUT(`request to ${this.#address} (client closed)`, 0);
        const sock = this.#socket();
        // socket options go through the addon (getsockopt/setsockopt): set them only on change
        if (this.#timeoutSet !== timeoutMs) {
          sock.receiveTimeout = timeoutMs;
          sock.sendTimeout = timeoutMs;
          this.#timeoutSet = timeoutMs;
        }
        try {
          await sock.send(frame);
          const [reply] = await sock.receive();
          return reply ?? Buffer.alloc(0);
        } catch (err) {
          this.#reset();
          const code = (err as { code?: string }).code;
          if (code !== 'EAGAIN' || attempt >= tries) {
            throw new SALT_ERR_BUS_TIMEOUT(`request to ${this.#address}`, timeoutMs * attempt, {
              cause: err,
            });
          }
        }
      }
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  close(): void {
    this.#closed = true;
    this.#reset();
  }
}
