/**
 * Keeps one outgoing connection up for the sockets that connect for good (./sub-socket.ts,
 * ./push-socket.ts): a lost or refused connection is made again after `reconnectMs`, doubling
 * up to `reconnectMaxMs` when that is larger (libzmq's `ZMQ_RECONNECT_IVL` and
 * `ZMQ_RECONNECT_IVL_MAX`; without a maximum the wait stays put), back to `reconnectMs` once
 * a handshake succeeds.
 */
import type { ClientLink } from './client-link.js';

export interface RedialerOptions {
  /** Default 100 ms. */
  reconnectMs?: number;
  /** Default 0: no doubling. */
  reconnectMaxMs?: number;
  /** A connection was lost or refused; another is on its way. */
  onDisconnect?: (err: Error) => void;
}

/** Makes a new connection; it must call `lost` (once) when that connection is gone. */
export type Dial = (lost: (err: Error) => void) => ClientLink;

export class Redialer {
  readonly #reconnectMs: number;
  readonly #reconnectMaxMs: number;
  readonly #onDisconnect: ((err: Error) => void) | undefined;
  readonly #dial: Dial;
  #link: ClientLink | undefined;
  #timer: NodeJS.Timeout | undefined;
  #wait: number;
  #closed = false;

  constructor(opts: RedialerOptions, dial: Dial) {
    this.#reconnectMs = opts.reconnectMs ?? 100;
    this.#reconnectMaxMs = opts.reconnectMaxMs ?? 0;
    this.#onDisconnect = opts.onDisconnect;
    this.#dial = dial;
    this.#wait = this.#reconnectMs;
  }

  /** The current connection, if any (it may still be in its handshake). */
  get link(): ClientLink | undefined {
    return this.#link;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Connects, and keeps reconnecting until {@link close}. */
  start(): void {
    if (!this.#link && !this.#timer && !this.#closed) this.#open();
  }

  /** The current connection finished its handshake: the next loss waits `reconnectMs` again. */
  connected(): void {
    this.#wait = this.#reconnectMs;
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#link?.destroy();
    this.#link = undefined;
  }

  #open(): void {
    const link = this.#dial((err) => {
      if (this.#link !== link) return;
      this.#link = undefined;
      this.#onDisconnect?.(err);
      this.#retry();
    });
    this.#link = link;
  }

  #retry(): void {
    if (this.#closed) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      if (!this.#closed) this.#open();
    }, this.#wait);
    if (this.#reconnectMaxMs > this.#reconnectMs) this.#wait = Math.min(this.#wait * 2, this.#reconnectMaxMs);
  }
}
