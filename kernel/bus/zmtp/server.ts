/**
 * The part every ZMTP server socket shares: listening, the greeting and READY handshake with
 * each peer, the socket-type check, incremental framing, and the commands any peer may send
 * (PING, ERROR). The publisher and the router (./pub-server.ts, ./router-server.ts) add what
 * their socket type does with messages.
 *
 * A peer that breaks the protocol is disconnected and reported through `onPeerError`; it never
 * throws into the server. Peers are kept small: a master holds tens of thousands.
 */
import { rm } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { SALT_ERR_BUS_ADDRESS_IN_USE, SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { type Frame, splitCommand } from './frame.js';
import { greeting, readyCommand } from './handshake.js';
import { answerCommand, READY, ZmtpStream } from './stream.js';

export interface ZmtpServerOptions {
  /** listen(2) backlog (Salt's `zmq_backlog`). */
  backlog?: number;
  /** Largest frame (and, for the router, message) a peer may send. */
  maxFrameBytes?: number;
  /** A peer that has not finished the handshake by then is disconnected. */
  handshakeTimeoutMs?: number;
  /** A peer broke the protocol or its socket failed; it has been disconnected. */
  onPeerError?: (err: Error) => void;
  /** TCP keepalive on every connection, first probe after this idle time (Salt's `tcp_keepalive`). */
  keepAliveIdleMs?: number;
}

/** One connection. Subclasses add their socket type's state. */
export class ZmtpPeer {
  readonly socket: Socket;
  readonly stream: ZmtpStream;
  timer: NodeJS.Timeout | undefined;

  constructor(socket: Socket, stream: ZmtpStream) {
    this.socket = socket;
    this.stream = stream;
  }

  /** The handshake is over. */
  get ready(): boolean {
    return this.stream.ready;
  }
}

export abstract class ZmtpServer<P extends ZmtpPeer> {
  protected readonly peers = new Set<P>();
  protected readonly maxFrameBytes: number;
  readonly #peerTypes: ReadonlySet<string>;
  readonly #hello: Buffer;
  readonly #backlog: number;
  readonly #handshakeTimeoutMs: number;
  readonly #onPeerError: ((err: Error) => void) | undefined;
  readonly #keepAliveIdleMs: number | undefined;
  /** A data frame over `maxFrameBytes` is skipped and handed on flagged, not a disconnection. */
  protected skipOversized = false;
  #server: Server | undefined;
  #closing = false;

  /** `socketType` is ours (sent in READY); `peerTypes` those allowed to connect to it. */
  constructor(socketType: string, peerTypes: readonly string[], opts: ZmtpServerOptions) {
    this.#peerTypes = new Set(peerTypes);
    this.#hello = Buffer.concat([greeting(), readyCommand({ 'Socket-Type': socketType })]);
    this.#backlog = opts.backlog ?? 1000;
    this.maxFrameBytes = opts.maxFrameBytes ?? 64 * 1024;
    this.#handshakeTimeoutMs = opts.handshakeTimeoutMs ?? 30_000;
    this.#onPeerError = opts.onPeerError;
    this.#keepAliveIdleMs = opts.keepAliveIdleMs;
  }

  /** The port bound (useful when binding port 0). */
  get port(): number {
    const address = this.#server?.address();
    return typeof address === 'object' && address ? address.port : 0;
  }

  /** Peers that finished the handshake. */
  get connected(): number {
    let n = 0;
    for (const p of this.peers) if (p.ready) n++;
    return n;
  }

  /** Listens on `host:port`; EADDRINUSE becomes `SALT_ERR_BUS_ADDRESS_IN_USE`. */
  async bind(host: string, port: number): Promise<void> {
    const shown = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
    await this.#listen({ host, port, backlog: this.#backlog }, shown);
  }

  /**
   * Listens on the unix socket `path` (libzmq's `ipc://`). A file left there by a process that
   * died is removed first, as libzmq does when it binds.
   */
  async bindPath(path: string): Promise<void> {
    await rm(path, { force: true });
    await this.#listen({ path, backlog: this.#backlog }, `ipc://${path}`);
  }

  async #listen(
    where: { host: string; port: number; backlog: number } | { path: string; backlog: number },
    shown: string,
  ): Promise<void> {
    const server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        reject(err.code === 'EADDRINUSE' ? new SALT_ERR_BUS_ADDRESS_IN_USE(shown, { cause: err }) : err);
      });
      server.listen(where, () => resolve());
    });
    server.on('error', (err) => this.#onPeerError?.(err));
    this.#server = server;
  }

  /**
   * Stops listening and disconnects every peer (what is unsent is dropped, as with linger 0).
   * Resolves once every peer's close has been handled, so nothing is reported after it.
   */
  async close(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    this.#closing = true;
    // stop accepting first: a connection arriving while the peers go would hold server.close()
    const stopped = server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    const gone = [...this.peers].map(
      (peer) =>
        new Promise<void>((resolve) =>
          peer.socket.closed ? resolve() : peer.socket.once('close', () => resolve()),
        ),
    );
    for (const peer of this.peers) peer.socket.destroy();
    await Promise.all(gone);
    await stopped;
  }

  /** Makes the per-connection state of a new peer. */
  protected abstract newPeer(socket: Socket, stream: ZmtpStream): P;

  /** A message frame from a peer past its handshake. */
  protected abstract onFrame(peer: P, frame: Frame): void;

  /** A command after the handshake; PING and ERROR are handled here, others ignored. */
  protected onCommand(peer: P, name: string, data: Buffer): void {
    const answer = answerCommand(name, data);
    if (answer === 'close') peer.socket.destroy();
    else if (answer) peer.socket.write(answer);
  }

  /** The peer finished the handshake; `metadata` is its READY's, names lower-cased. */
  protected onReady(_peer: P, _metadata: Map<string, string>): void {}

  /** The connection is gone. */
  protected onClosed(_peer: P): void {}

  /** Disconnects a peer that broke the protocol and reports why. */
  protected fail(peer: P, err: Error): void {
    if (peer.socket.destroyed) return;
    peer.socket.destroy();
    this.#onPeerError?.(err);
  }

  /** Serves a connection another listener of the path accepted, with the bytes it read (`head`). */
  adopt(socket: Socket, head: Buffer): void {
    socket.unshift(head);
    this.#accept(socket);
  }

  #accept(socket: Socket): void {
    if (this.#closing) {
      socket.destroy();
      return;
    }
    if (this.#keepAliveIdleMs !== undefined) socket.setKeepAlive(true, this.#keepAliveIdleMs);
    const stream = new ZmtpStream(this.#peerTypes, this.maxFrameBytes, this.skipOversized);
    const peer = this.newPeer(socket, stream);
    this.peers.add(peer);
    peer.timer = setTimeout(
      () => this.fail(peer, new SALT_ERR_BUS_ZMTP('handshake timed out')),
      this.#handshakeTimeoutMs,
    );
    socket.on('data', (chunk: Buffer) => {
      try {
        this.#receive(peer, chunk);
      } catch (err) {
        this.fail(peer, err as Error);
      }
    });
    socket.on('error', (err) => this.fail(peer, err));
    socket.on('close', () => {
      if (!this.peers.delete(peer)) return;
      clearTimeout(peer.timer);
      try {
        this.onClosed(peer);
      } catch (err) {
        // a listener of ours failed: report it rather than crash the daemon from an event handler
        this.#onPeerError?.(err as Error);
      }
    });
    socket.write(this.#hello);
  }

  #receive(peer: P, chunk: Buffer): void {
    const stream = peer.stream;
    stream.feed(chunk);
    for (let frame = stream.next(); frame; frame = stream.next()) {
      if (peer.socket.destroyed) return;
      if (frame === READY) {
        clearTimeout(peer.timer);
        this.onReady(peer, stream.metadata as Map<string, string>);
        peer.timer = stream.metadata = undefined; // not kept per peer: a master holds 10,000s
      } else if (frame.command) {
        const { name, data } = splitCommand(frame.body);
        this.onCommand(peer, name, data);
      } else this.onFrame(peer, frame);
    }
  }
}
