/**
 * A ZMTP 3.0 PUSH socket over one connection (TCP or a unix socket): how tsalt's processes
 * fire events onto the master bus (`master_event_pull.ipc`) and hand publish loads to the
 * publisher (`publish_pull.ipc`), both bound by ./pull-server.ts (a libzmq PULL would do).
 * Like libzmq's PUSH it never blocks the sender: messages wait while the connection is being
 * made (up to `hwm` of them), the connection is made again after a loss, and a message that
 * finds the queue full is dropped and counted.
 *
 * Why not zeromq.js's Push: each send went through the addon's promise and libzmq's I/O
 * thread, and every process that fires an event loaded libzmq (~10 ms of a CLI's start).
 */
import type { Socket } from 'node:net';
import type { ZmtpEndpoint } from '../address.js';
import { encodeMessage } from './frame.js';
import { Redialer } from './redialer.js';

const PULLER_TYPES = new Set(['PULL']);

export type ZmtpPusherOptions = ZmtpEndpoint & {
  /** Messages held before the connection is up; default 100000. */
  hwm?: number;
  /** Bytes the connection may hold unsent (a peer that stopped reading); default 256 MiB. */
  maxBufferedBytes?: number;
  /**
   * Wait between connection attempts (ms); default 100. It doubles up to `reconnectMaxMs` when
   * that is larger (default 0: it stays put, as libzmq's reconnect interval does by default).
   */
  reconnectMs?: number;
  reconnectMaxMs?: number;
  /** The connection was lost or refused; it is being made again. */
  onDisconnect?: (err: Error) => void;
};

export class ZmtpPusher {
  readonly #hwm: number;
  readonly #maxBuffered: number;
  readonly #dialer: Redialer;
  /** Encoded messages waiting for the handshake. */
  #queue: Buffer[] = [];
  #dropped = 0;
  /** Set while a turn that already wrote is under way; its end flushes what was held. */
  #turn: NodeJS.Immediate | undefined;
  /** The socket held (corked) for the rest of this turn. */
  #corked: Socket | undefined;

  constructor(opts: ZmtpPusherOptions) {
    this.#hwm = opts.hwm ?? 100_000;
    this.#maxBuffered = opts.maxBufferedBytes ?? 256 * 1024 * 1024;
    this.#dialer = new Redialer(opts, {
      socketType: 'PUSH',
      peerTypes: PULLER_TYPES,
      // a PULL peer sends no messages, only its READY and heartbeats
      maxMessageBytes: 8192,
      afterReady: () => {
        const queued = this.#queue;
        this.#queue = [];
        return queued.length > 0 ? Buffer.concat(queued) : undefined;
      },
      onMessage: () => undefined,
    });
    this.#dialer.start();
  }

  /** Messages dropped: the queue was full, or the socket was closed. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Messages waiting for the connection. */
  get queued(): number {
    return this.#queue.length;
  }

  /** Sends one message (its parts); false when it was dropped. Never throws, never waits. */
  send(parts: Buffer | readonly Buffer[]): boolean {
    if (this.#dialer.closed) {
      this.#dropped++;
      return false;
    }
    const bytes = encodeMessage(Buffer.isBuffer(parts) ? [parts] : parts);
    const link = this.#dialer.link;
    if (link?.ready) {
      if (link.socket.writableLength >= this.#maxBuffered) {
        this.#dropped++;
        return false;
      }
      this.#write(link.socket, bytes);
      return true;
    }
    if (this.#queue.length >= this.#hwm) {
      this.#dropped++;
      return false;
    }
    this.#queue.push(bytes);
    return true;
  }

  /**
   * The first message of an event-loop turn is written at once; the ones after it in the same
   * turn are held (`cork`) and go out together in one `writev` when the turn ends. A request
   * server that handles a hundred returns in one turn fires a hundred events: one system call
   * for them instead of one each, and one read for the puller.
   */
  #write(socket: Socket, bytes: Buffer): void {
    if (this.#turn === undefined) {
      socket.write(bytes);
      this.#turn = setImmediate(this.#endTurn);
      return;
    }
    if (this.#corked === undefined) {
      socket.cork();
      this.#corked = socket;
    }
    socket.write(bytes);
  }

  readonly #endTurn = (): void => {
    this.#turn = undefined;
    const corked = this.#corked;
    this.#corked = undefined;
    if (corked && !corked.destroyed) corked.uncork();
  };

  /**
   * Stops; what is queued or unsent gets up to `lingerMs` to reach the peer (libzmq's
   * `ZMQ_LINGER`), then is dropped.
   */
  async close(lingerMs = 1000): Promise<void> {
    if (this.#dialer.closed) return;
    // what this turn held back goes to the kernel now, as an unheld write would have
    if (this.#turn !== undefined) {
      clearImmediate(this.#turn);
      this.#endTurn();
    }
    const deadline = Date.now() + lingerMs;
    while (Date.now() < deadline && !this.#flushed()) await new Promise((r) => setTimeout(r, 5));
    this.#dialer.close();
    this.#dropped += this.#queue.length;
    this.#queue = [];
  }

  #flushed(): boolean {
    const link = this.#dialer.link;
    return (
      this.#queue.length === 0 && (link === undefined || (link.ready && link.socket.writableLength === 0))
    );
  }
}
