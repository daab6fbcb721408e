/**
 * A ZMTP 3.0 publisher over Node's own TCP sockets: the many-peer end of Salt's publish channel
 * (port 4505), speaking to libzmq SUB sockets (stock Salt minions through pyzmq, tsalt minions
 * through zeromq.js) exactly as a libzmq XPUB would.
 *
 * Why not libzmq's XPUB: libzmq keeps ~18 KiB of state per connected peer (pipes, session,
 * engine buffers; sized at compile time), ~180 MiB at 10,000 minions, for a socket that only
 * ever sends a few hundred bytes per job. A Node socket costs ~2.5 KiB. Everything a minion can
 * observe is kept: the greeting and READY handshake, prefix subscriptions, drops past a
 * high-water mark instead of unbounded queues, and XPUB's deduplicated subscription messages
 * (used for presence, kernel/master/presence.ts).
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SALT_ERR_BUS_ADDRESS_IN_USE, SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { encodeCommand, encodeMessage, type Frame, FrameDecoder, splitCommand } from './frame.js';
import { checkGreeting, GREETING_BYTES, greeting, parseMetadata, readyCommand } from './handshake.js';

export interface ZmtpPublisherOptions {
  /**
   * Messages a peer may have waiting in its socket before further publishes to it are dropped
   * (libzmq's ZMQ_SNDHWM; Salt's `pub_hwm`). Counted in bytes as this many of the current message.
   */
  sendHighWaterMark: number;
  /** listen(2) backlog (Salt's `zmq_backlog`). */
  backlog?: number;
  /** Largest frame a peer may send us; subscriptions are short. */
  maxFrameBytes?: number;
  /** A peer that has not finished the handshake by then is disconnected. */
  handshakeTimeoutMs?: number;
  /**
   * XPUB's subscription messages: first byte 1 (subscribe) or 0 (unsubscribe), then the topic.
   * Deduplicated across peers: only a topic's first subscriber and last leaver are reported.
   */
  onSubscription?: (msg: Buffer) => void;
  /** A peer broke the protocol or its socket failed; it has been disconnected. */
  onPeerError?: (err: Error) => void;
}

const SUBSCRIBER_TYPES = new Set(['SUB', 'XSUB']);

/** One connected peer. Kept small: there may be tens of thousands. */
class Peer {
  readonly socket: Socket;
  /** Bytes of the peer's greeting received so far, until all 64 are in. */
  greetingBytes: Buffer | undefined = Buffer.alloc(0);
  decoder: FrameDecoder | undefined;
  ready = false;
  /** Subscribed to everything (the empty topic): the common case, matched without a loop. */
  all = false;
  /** Other subscriptions (binary topics, as latin1 strings). */
  topics: Set<string> | undefined;
  timer: NodeJS.Timeout | undefined;

  constructor(socket: Socket) {
    this.socket = socket;
  }

  matches(first: Buffer): boolean {
    if (this.all) return true;
    if (!this.topics) return false;
    for (const topic of this.topics) {
      if (topic.length <= first.length && first.toString('latin1', 0, topic.length) === topic) return true;
    }
    return false;
  }
}

export class ZmtpPublisher {
  readonly #opts: Required<Omit<ZmtpPublisherOptions, 'onSubscription' | 'onPeerError'>> &
    ZmtpPublisherOptions;
  readonly #peers = new Set<Peer>();
  /** How many peers hold each topic, for XPUB's deduplicated subscription messages. */
  readonly #topicCounts = new Map<string, number>();
  readonly #hello: Buffer;
  #server: Server | undefined;
  #dropped = 0;

  constructor(opts: ZmtpPublisherOptions) {
    this.#opts = { backlog: 1000, maxFrameBytes: 64 * 1024, handshakeTimeoutMs: 30_000, ...opts };
    this.#hello = Buffer.concat([greeting(), readyCommand({ 'Socket-Type': 'XPUB' })]);
  }

  /** Peers that finished the handshake. */
  get peers(): number {
    let n = 0;
    for (const p of this.#peers) if (p.ready) n++;
    return n;
  }

  /** Messages not sent to a peer because it was past the high-water mark. */
  get dropped(): number {
    return this.#dropped;
  }

  /** The port bound (useful when binding port 0). */
  get port(): number {
    const address = this.#server?.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Listens on `host:port`; EADDRINUSE becomes `SALT_ERR_BUS_ADDRESS_IN_USE`. */
  async bind(host: string, port: number): Promise<void> {
    const server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const shown = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
        reject(err.code === 'EADDRINUSE' ? new SALT_ERR_BUS_ADDRESS_IN_USE(shown, { cause: err }) : err);
      });
      server.listen({ host, port, backlog: this.#opts.backlog }, () => resolve());
    });
    server.on('error', (err) => this.#opts.onPeerError?.(err));
    this.#server = server;
  }

  /**
   * Sends one message (its parts) to every ready peer whose subscriptions match its first part.
   * Never blocks: a peer whose socket already holds `sendHighWaterMark` such messages misses this
   * one. Returns the number of peers it was written to.
   */
  send(parts: readonly Uint8Array[]): number {
    const first = parts[0];
    if (!first) return 0;
    const firstBuf = Buffer.isBuffer(first)
      ? first
      : Buffer.from(first.buffer, first.byteOffset, first.length);
    const wire = encodeMessage(parts);
    const limit = this.#opts.sendHighWaterMark * wire.length;
    let sent = 0;
    for (const peer of this.#peers) {
      if (!peer.ready || !peer.matches(firstBuf)) continue;
      if (limit > 0 && peer.socket.writableLength >= limit) {
        this.#dropped++;
        continue;
      }
      peer.socket.write(wire);
      sent++;
    }
    return sent;
  }

  /** Stops listening and disconnects every peer. */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const peer of this.#peers) peer.socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #accept(socket: Socket): void {
    const peer = new Peer(socket);
    this.#peers.add(peer);
    peer.timer = setTimeout(
      () => this.#fail(peer, new SALT_ERR_BUS_ZMTP('handshake timed out')),
      this.#opts.handshakeTimeoutMs,
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        this.#receive(peer, chunk);
      } catch (err) {
        this.#fail(peer, err as Error);
      }
    });
    socket.on('error', (err) => this.#fail(peer, err));
    socket.on('close', () => this.#forget(peer));
    socket.write(this.#hello);
  }

  #receive(peer: Peer, chunk: Buffer): void {
    let data = chunk;
    if (peer.greetingBytes) {
      const have = Buffer.concat([peer.greetingBytes, data]);
      if (have.length < GREETING_BYTES) {
        // a peer that is not speaking ZMTP fails on its first bytes, not after 64
        if (have[0] !== undefined && have[0] !== 0xff) throw new SALT_ERR_BUS_ZMTP('not a ZMTP 3 greeting');
        peer.greetingBytes = have;
        return;
      }
      checkGreeting(have.subarray(0, GREETING_BYTES));
      peer.greetingBytes = undefined;
      peer.decoder = new FrameDecoder(this.#opts.maxFrameBytes);
      data = have.subarray(GREETING_BYTES);
      if (data.length === 0) return;
    }
    const frames = (peer.decoder as FrameDecoder).push(data);
    for (const frame of frames) this.#frame(peer, frame);
  }

  #frame(peer: Peer, frame: Frame): void {
    if (frame.command) {
      const { name, data } = splitCommand(frame.body);
      if (!peer.ready) {
        if (name !== 'READY') throw new SALT_ERR_BUS_ZMTP(`expected READY, got ${name}`);
        const type = parseMetadata(data).get('socket-type') ?? '';
        if (!SUBSCRIBER_TYPES.has(type))
          throw new SALT_ERR_BUS_ZMTP(`a ${type || 'typeless'} socket cannot subscribe to a publisher`);
        peer.ready = true;
        clearTimeout(peer.timer);
        peer.timer = undefined;
        return;
      }
      if (name === 'SUBSCRIBE') this.#subscribe(peer, data.toString('latin1'));
      else if (name === 'CANCEL') this.#unsubscribe(peer, data.toString('latin1'));
      else if (name === 'PING') peer.socket.write(encodeCommand('PONG', data.subarray(2)));
      else if (name === 'ERROR') peer.socket.destroy();
      return;
    }
    if (!peer.ready) throw new SALT_ERR_BUS_ZMTP('message before READY');
    // ZMTP 3.0 subscriptions: a one-part message, 1 or 0 then the topic; anything else is ignored
    if (frame.more || frame.body.length === 0) return;
    const topic = frame.body.toString('latin1', 1);
    if (frame.body[0] === 1) this.#subscribe(peer, topic);
    else if (frame.body[0] === 0) this.#unsubscribe(peer, topic);
  }

  #subscribe(peer: Peer, topic: string): void {
    if (topic === '') {
      if (peer.all) return;
      peer.all = true;
    } else {
      peer.topics ??= new Set();
      if (peer.topics.has(topic)) return;
      peer.topics.add(topic);
    }
    const count = (this.#topicCounts.get(topic) ?? 0) + 1;
    this.#topicCounts.set(topic, count);
    if (count === 1) this.#report(1, topic);
  }

  #unsubscribe(peer: Peer, topic: string): void {
    if (topic === '') {
      if (!peer.all) return;
      peer.all = false;
    } else if (!peer.topics?.delete(topic)) return;
    const count = (this.#topicCounts.get(topic) ?? 1) - 1;
    if (count > 0) {
      this.#topicCounts.set(topic, count);
      return;
    }
    this.#topicCounts.delete(topic);
    this.#report(0, topic);
  }

  #report(kind: 0 | 1, topic: string): void {
    const report = this.#opts.onSubscription;
    if (!report) return;
    const msg = Buffer.allocUnsafe(1 + Buffer.byteLength(topic, 'latin1'));
    msg[0] = kind;
    msg.write(topic, 1, 'latin1');
    report(msg);
  }

  #fail(peer: Peer, err: Error): void {
    if (peer.socket.destroyed) return;
    peer.socket.destroy();
    this.#opts.onPeerError?.(err);
  }

  /** A closed connection: its subscriptions go, as libzmq's XPUB drops a gone peer's. */
  #forget(peer: Peer): void {
    if (!this.#peers.delete(peer)) return;
    clearTimeout(peer.timer);
    if (peer.all) this.#unsubscribe(peer, '');
    for (const topic of [...(peer.topics ?? [])]) this.#unsubscribe(peer, topic);
  }
}
