/**
 * Keeps one outgoing connection up for the sockets that connect for good (./sub-socket.ts,
 * ./push-socket.ts): a lost or refused connection is made again after `reconnectMs`, doubling
 * up to `reconnectMaxMs` when that is larger (libzmq's `ZMQ_RECONNECT_IVL` and
 * `ZMQ_RECONNECT_IVL_MAX`; without a maximum the wait stays put), back to `reconnectMs` once
 * a handshake succeeds.
 */
import { endpointOf, type ZmtpEndpoint } from '../address.js';
import { ClientLink, type ClientLinkSpec } from './client-link.js';

export type RedialerOptions = ZmtpEndpoint & {
  /** Default 100 ms. */
  reconnectMs?: number;
  /** Default 0: no doubling. */
  reconnectMaxMs?: number;
  /** A connection was lost or refused; another is on its way. */
  onDisconnect?: (err: Error) => void;
};

export class Redialer {
  readonly #endpoint: ZmtpEndpoint;
  readonly #reconnectMs: number;
  readonly #reconnectMaxMs: number;
  readonly #onDisconnect: ((err: Error) => void) | undefined;
  readonly #spec: Omit<ClientLinkSpec, 'onClose'>;
  #link: ClientLink | undefined;
  #timer: NodeJS.Timeout | undefined;
  #wait: number;
  #closed = false;

  /** `opts`: where and how often; `spec`: what each connection is (see ./client-link.ts). */
  constructor(opts: RedialerOptions, spec: Omit<ClientLinkSpec, 'onClose'>) {
    this.#endpoint = endpointOf(opts);
    this.#reconnectMs = opts.reconnectMs ?? 100;
    this.#reconnectMaxMs = opts.reconnectMaxMs ?? 0;
    this.#onDisconnect = opts.onDisconnect;
    this.#spec = spec;
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

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#link?.destroy();
    this.#link = undefined;
  }

  #open(): void {
    const link: ClientLink = new ClientLink({
      ...this.#endpoint,
      ...this.#spec,
      afterReady: () => {
        // connected: the next loss waits `reconnectMs` again
        this.#wait = this.#reconnectMs;
        return this.#spec.afterReady?.();
      },
      onClose: (err) => {
        if (this.#link !== link) return;
        this.#link = undefined;
        this.#onDisconnect?.(err);
        this.#retry();
      },
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
