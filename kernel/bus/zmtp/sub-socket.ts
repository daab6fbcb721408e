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
import type { ZmtpEndpoint } from '../address.js';
import { encodeMessage } from './frame.js';
import { Redialer } from './redialer.js';

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
  readonly #opts: Required<Pick<ZmtpSubscriberOptions, 'maxMessageBytes'>> & ZmtpSubscriberOptions;
  readonly #topics = new Map<string, Buffer>();
  readonly #dialer: Redialer;

  constructor(opts: ZmtpSubscriberOptions) {
    this.#opts = { maxMessageBytes: 256 * 1024 * 1024, ...opts };
    this.#dialer = new Redialer(opts, {
      socketType: 'SUB',
      peerTypes: PUBLISHER_TYPES,
      maxMessageBytes: this.#opts.maxMessageBytes,
      // every subscription again, on each new connection
      afterReady: () =>
        this.#topics.size > 0
          ? Buffer.concat([...this.#topics.values()].map((t) => subscription(t)))
          : undefined,
      onMessage: (parts) => {
        if (this.#matches(parts[0] as Buffer)) this.#opts.onMessage(parts);
      },
    });
  }

  /** Connects (and keeps reconnecting) until {@link close}. */
  connect(): void {
    this.#dialer.start();
  }

  /** Adds a prefix subscription (the empty string: everything); sent now if connected. */
  subscribe(topic: string): void {
    if (this.#topics.has(topic)) return;
    const bytes = Buffer.from(topic, 'utf8');
    this.#topics.set(topic, bytes);
    const link = this.#dialer.link;
    if (link?.ready) link.socket.write(subscription(bytes));
  }

  /** Drops a subscription; the publisher is told if connected. */
  unsubscribe(topic: string): void {
    const bytes = this.#topics.get(topic);
    if (!bytes) return;
    this.#topics.delete(topic);
    const link = this.#dialer.link;
    if (link?.ready) link.socket.write(subscription(bytes, 0));
  }

  close(): void {
    this.#dialer.close();
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
