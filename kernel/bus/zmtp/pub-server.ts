/**
 * A ZMTP 3.0 publisher over Node's own TCP sockets: the many-peer end of Salt's publish channel
 * (port 4505), speaking to libzmq SUB sockets (stock Salt minions through pyzmq, tsalt minions
 * through zeromq.js) exactly as a libzmq XPUB would.
 *
 * Why not libzmq's XPUB: libzmq keeps ~18 KiB of state per connected peer (pipes, session,
 * engine buffers; sized at compile time), ~180 MiB at 10,000 minions, for a socket that only
 * ever sends a few hundred bytes per job. A Node socket costs a few KiB. Everything a minion can
 * observe is kept: the handshake, prefix subscriptions, drops past a high-water mark instead of
 * unbounded queues, and XPUB's deduplicated subscription messages (used for presence,
 * kernel/bus/presence.ts).
 */
import type { Socket } from 'node:net';
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import type { Frame } from './frame.js';
import { encodeMessage } from './frame.js';
import { ZmtpPeer, ZmtpServer, type ZmtpServerOptions } from './server.js';
import type { ZmtpStream } from './stream.js';

export interface ZmtpPublisherOptions extends ZmtpServerOptions {
  /**
   * Messages a peer may have waiting in its socket before further publishes to it are dropped
   * (libzmq's ZMQ_SNDHWM; Salt's `pub_hwm`; 0 = no limit). Counted in messages, as libzmq does.
   */
  sendHighWaterMark: number;
  /** Bytes a peer may have waiting before further publishes to it are dropped; 0 = no limit. */
  maxQueuedBytes?: number;
  /**
   * XPUB's subscription messages: first byte 1 (subscribe) or 0 (unsubscribe), then the topic.
   * Deduplicated across peers: only a topic's first subscriber and last leaver are reported,
   * unless `reportEverySubscription`.
   */
  onSubscription?: (msg: Buffer) => void;
  /**
   * Report every peer's subscribe and unsubscribe, including those of a peer that leaves
   * (libzmq's `ZMQ_XPUB_VERBOSER`): for counting subscribers per topic.
   */
  reportEverySubscription?: boolean;
  /** Subscriptions one peer may hold before it is disconnected; default 64. */
  maxTopicsPerPeer?: number;
  /** Messages sent in one tick go to each peer in one write (an event bus: a batch of returns' events). */
  coalesce?: boolean;
}

/**
 * Subscriptions one peer may hold by default. A Salt minion holds one or two (everything, or
 * `broadcast` and its own topic with `zmq_filtering`), a tsalt minion two (everything and its
 * presence topic); past this the peer is taken for hostile and disconnected.
 */
const MAX_TOPICS_PER_PEER = 64;

function uncorkNextTick(socket: Socket): void {
  socket.cork();
  process.nextTick(() => socket.uncork());
}

class SubscriberPeer extends ZmtpPeer {
  /** Subscribed to everything (the empty topic): the common case, matched without a loop. */
  all = false;
  /** Messages written while the socket was already holding unsent bytes, not yet flushed. */
  queued = 0;
  /** The write callback of those messages (one function per peer, not one per write). */
  readonly flushed = (): void => {
    this.queued--;
  };
  /** Other subscriptions (binary topics, as latin1 strings, with their bytes for matching). */
  topics: Map<string, Buffer> | undefined;

  matches(first: Buffer): boolean {
    if (this.all) return true;
    if (!this.topics) return false;
    for (const topic of this.topics.values()) {
      if (topic.length <= first.length && first.compare(topic, 0, topic.length, 0, topic.length) === 0)
        return true;
    }
    return false;
  }
}

export class ZmtpPublisher extends ZmtpServer<SubscriberPeer> {
  readonly #hwm: number;
  readonly #maxBytes: number;
  readonly #onSubscription: ((msg: Buffer) => void) | undefined;
  readonly #reportEvery: boolean;
  readonly #maxTopics: number;
  readonly #coalesce: boolean;
  /** How many peers hold each topic, for XPUB's deduplicated subscription messages. */
  readonly #topicCounts = new Map<string, number>();
  #dropped = 0;

  constructor(opts: ZmtpPublisherOptions) {
    super('XPUB', ['SUB', 'XSUB'], opts);
    this.#hwm = opts.sendHighWaterMark;
    this.#maxBytes = opts.maxQueuedBytes ?? 0;
    this.#onSubscription = opts.onSubscription;
    this.#reportEvery = opts.reportEverySubscription ?? false;
    this.#maxTopics = opts.maxTopicsPerPeer ?? MAX_TOPICS_PER_PEER;
    this.#coalesce = opts.coalesce ?? false;
  }

  /** Messages not sent to a peer because it was past the high-water mark. */
  get dropped(): number {
    return this.#dropped;
  }

  /**
   * Sends one message (its parts) to every ready peer whose subscriptions match its first part.
   * Never blocks: a peer whose socket already holds `sendHighWaterMark` messages (or
   * `maxQueuedBytes`) unsent misses this one. Returns the number of peers it was written to.
   */
  send(parts: readonly Uint8Array[]): number {
    const first = parts[0];
    if (!first) return 0;
    const firstBuf = Buffer.isBuffer(first)
      ? first
      : Buffer.from(first.buffer, first.byteOffset, first.length);
    // encoded once; every peer's socket holds a reference to the same bytes until written
    const wire = encodeMessage(parts);
    let sent = 0;
    for (const peer of this.peers) {
      if (!peer.ready || !peer.matches(firstBuf)) continue;
      const backlog = peer.socket.writableLength;
      if (backlog === 0 && !this.#coalesce) {
        // the common case: the kernel takes it at once, nothing to count
        peer.socket.write(wire);
      } else if (
        (this.#hwm > 0 && peer.queued >= this.#hwm) ||
        (this.#maxBytes > 0 && backlog >= this.#maxBytes)
      ) {
        this.#dropped++;
        continue;
      } else {
        if (this.#coalesce && !peer.socket.writableCorked) uncorkNextTick(peer.socket);
        peer.queued++;
        peer.socket.write(wire, peer.flushed);
      }
      sent++;
    }
    return sent;
  }

  protected newPeer(socket: Socket, stream: ZmtpStream): SubscriberPeer {
    return new SubscriberPeer(socket, stream);
  }

  /** ZMTP 3.0 subscriptions: a one-part message, 1 or 0 then the topic; anything else is ignored. */
  protected onFrame(peer: SubscriberPeer, frame: Frame): void {
    if (frame.more || frame.body.length === 0) return;
    const topic = frame.body.toString('latin1', 1);
    if (frame.body[0] === 1) this.#subscribe(peer, topic);
    else if (frame.body[0] === 0) this.#unsubscribe(peer, topic);
  }

  /** ZMTP 3.1 subscriptions are commands. */
  protected override onCommand(peer: SubscriberPeer, name: string, data: Buffer): void {
    if (name === 'SUBSCRIBE') this.#subscribe(peer, data.toString('latin1'));
    else if (name === 'CANCEL') this.#unsubscribe(peer, data.toString('latin1'));
    else super.onCommand(peer, name, data);
  }

  /** A gone peer's subscriptions go, as libzmq's XPUB drops a gone peer's. */
  protected override onClosed(peer: SubscriberPeer): void {
    if (peer.all) this.#unsubscribe(peer, '');
    for (const topic of [...(peer.topics?.keys() ?? [])]) this.#unsubscribe(peer, topic);
  }

  #subscribe(peer: SubscriberPeer, topic: string): void {
    if (topic === '') {
      if (peer.all) return;
      peer.all = true;
    } else {
      peer.topics ??= new Map();
      if (peer.topics.has(topic)) return;
      if (peer.topics.size >= this.#maxTopics) {
        this.fail(peer, new SALT_ERR_BUS_ZMTP(`more than ${this.#maxTopics} subscriptions`));
        return;
      }
      peer.topics.set(topic, Buffer.from(topic, 'latin1'));
    }
    const count = (this.#topicCounts.get(topic) ?? 0) + 1;
    this.#topicCounts.set(topic, count);
    if (count === 1 || this.#reportEvery) this.#report(1, topic);
  }

  #unsubscribe(peer: SubscriberPeer, topic: string): void {
    if (topic === '') {
      if (!peer.all) return;
      peer.all = false;
    } else if (!peer.topics?.delete(topic)) return;
    const count = (this.#topicCounts.get(topic) ?? 1) - 1;
    if (count > 0) this.#topicCounts.set(topic, count);
    else this.#topicCounts.delete(topic);
    if (count === 0 || this.#reportEvery) this.#report(0, topic);
  }

  #report(kind: 0 | 1, topic: string): void {
    if (!this.#onSubscription) return;
    const msg = Buffer.allocUnsafe(1 + topic.length);
    msg[0] = kind;
    msg.write(topic, 1, 'latin1');
    this.#onSubscription(msg);
  }
}
