/**
 * A REQ channel client: one outstanding request at a time, further requests queued; a timed
 * out try drops the connection and sends again on a new one (Salt's AsyncReqMessageClient).
 * The socket is tsalt's ZMTP REQ (./zmtp/req-socket.ts), which a libzmq ROUTER (a Salt master)
 * and tsalt's own ROUTER both take for libzmq's.
 */
import { SALT_ERR_BUS_TIMEOUT } from '../errors.js';
import { parseTcpAddress } from './address.js';
import { isRetryable, ZmtpRequester } from './zmtp/req-socket.js';

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
  readonly #target: { host: string; port: number };
  #sock: ZmtpRequester | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(address: string, opts: ReqClientOptions) {
    this.#address = address;
    this.#opts = opts;
    this.#target = parseTcpAddress(address);
  }

  get address(): string {
    return this.#address;
  }

  #socket(): ZmtpRequester {
    this.#sock ??= new ZmtpRequester({ ...this.#target, reconnectMaxMs: this.#opts.reconnectMaxMs ?? 5000 });
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
        try {
          return await this.#socket().request(frame, timeoutMs);
        } catch (err) {
          this.#reset();
          if (!isRetryable(err) || attempt >= tries) {
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

  /**
   * Drops the connection now (a request under way on it fails); the next request opens a new
   * one. For a client that will be idle a while, such as a minion
   * waiting for its key to be accepted.
   */
  disconnect(): void {
    this.#reset();
  }

  close(): void {
    this.#closed = true;
    this.#reset();
  }
}
