/**
 * A ZMTP 3.0 SUB socket over one Node TCP connection: the minion's end of Salt's publish
 * channel (`publish_port`). It subscribes to a libzmq PUB/XPUB (a Salt master) or to tsalt's
 * publisher (./pub-server.ts) as libzmq's SUB does: after the handshake, one `\x01topic`
 * message per subscription, sent again on every reconnection. A lost connection is made again
 * after `reconnectMs`, doubling up to `reconnectMaxMs` (libzmq's `ZMQ_RECONNECT_IVL` and
 * `ZMQ_RECONNECT_IVL_MAX`; Salt's `recon_default` and `recon_max`).
 *
 * Why not zeromq.js's Subscriber: every publish woke the addon's poller and libzmq's I/O thread
 * before the minion's own code ran, in each minion and, in the swarm, 10,000 times per job.
 */
import { endpointOf, type ZmtpEndpoint } from '../address.js';
import { ClientLink } from './client-link.js';
import { encodeMessage } from './frame.js';

const PUBLISHER_TYPES = new Set(['PUB', 'XPUB']);

export type ZmtpSubscriberOptions = ZmtpEndpoint & {
  reconnectMs?: number;
  reconnectMaxMs?: number;
  /** Largest publish accepted (bytes). */
  maxMessageBytes?: number;
  /** A publish (its parts) matching a subscription. */
  onMessage: (parts: Buffer[]) => void;
  /** The connection was lost or refused; it is being made again. */
  onDisconnect?: (err: Error) => void;
};

export class ZmtpSubscriber {
  readonly #endpoint: ZmtpEndpoint;
  readonly #opts: Required<
    Pick<ZmtpSubscriberOptions, 'reconnectMs' | 'reconnectMaxMs' | 'maxMessageBytes'>
  > &
    ZmtpSubscriberOptions;
  readonly #topics = new Map<string, Buffer>();
  #link: ClientLink | undefined;
  #timer: NodeJS.Timeout | undefined;
  #wait: number;
  #closed = false;

  constructor(opts: ZmtpSubscriberOptions) {
    this.#endpoint = endpointOf(opts);
    this.#opts = { reconnectMs: 100, reconnectMaxMs: 0, maxMessageBytes: 256 * 1024 * 1024, ...opts };
    this.#wait = this.#opts.reconnectMs;
  }

  /** Connects (and keeps reconnecting) until {@link close}. */
  connect(): void {
    if (!this.#link && !this.#timer && !this.#closed) this.#open();
  }

  /** Adds a prefix subscription (the empty string: everything); sent now if connected. */
  subscribe(topic: string): void {
    if (this.#topics.has(topic)) return;
    const bytes = Buffer.from(topic, 'utf8');
    this.#topics.set(topic, bytes);
    if (this.#link?.ready) this.#link.socket.write(subscription(bytes));
  }

  /** Drops a subscription; the publisher is told if connected. */
  unsubscribe(topic: string): void {
    const bytes = this.#topics.get(topic);
    if (!bytes) return;
    this.#topics.delete(topic);
    if (this.#link?.ready) this.#link.socket.write(subscription(bytes, 0));
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
      socketType: 'SUB',
      peerTypes: PUBLISHER_TYPES,
      maxMessageBytes: this.#opts.maxMessageBytes,
      afterReady: () => {
        this.#wait = this.#opts.reconnectMs;
        return this.#topics.size > 0
          ? Buffer.concat([...this.#topics.values()].map((t) => subscription(t)))
          : undefined;
      },
      onMessage: (parts) => {
        if (this.#matches(parts[0] as Buffer)) this.#opts.onMessage(parts);
      },
      onClose: (err) => {
        if (this.#link !== link) return;
        this.#link = undefined;
        this.#opts.onDisconnect?.(err);
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
    // libzmq doubles the wait up to the maximum when one is set; without one it stays put
    if (this.#opts.reconnectMaxMs > this.#opts.reconnectMs)
      this.#wait = Math.min(this.#wait * 2, this.#opts.reconnectMaxMs);
  }

  /** As libzmq's SUB filters too: a publisher need not have (a Salt master's does). */
  #matches(first: Buffer): boolean {
    for (const topic of this.#topics.values()) {
      if (topic.length <= first.length && first.compare(topic, 0, topic.length, 0, topic.length) === 0)
        return true;
    }
    return false;
  }
}

/** libzmq's subscribe (`\x01topic`) or cancel (`\x00topic`) message. */
function subscription(topic: Buffer, on: 0 | 1 = 1): Buffer {
  return encodeMessage([Buffer.concat([Buffer.from([on]), topic])]);
}
