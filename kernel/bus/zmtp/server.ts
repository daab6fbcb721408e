/**
 * The part every ZMTP server socket shares: listening, the greeting and READY handshake with
 * each peer, the socket-type check, incremental framing, and the commands any peer may send
 * (PING, ERROR). The publisher and the router (./pub-server.ts, ./router-server.ts) add what
 * their socket type does with messages.
 *
 * A peer that breaks the protocol is disconnected and reported through `onPeerError`; it never
 * throws into the server. Peers are kept small: a master holds tens of thousands.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { SALT_ERR_BUS_ADDRESS_IN_USE, SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { encodeCommand, type Frame, FrameDecoder, splitCommand } from './frame.js';
import { checkGreeting, GREETING_BYTES, greeting, parseMetadata, readyCommand } from './handshake.js';

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

/** Largest frame a peer may send before its READY: a greeting's worth of trust. */
const MAX_HANDSHAKE_FRAME_BYTES = 8 * 1024;

const NO_BYTES = Buffer.alloc(0);

/** One connection. Subclasses add their socket type's state. */
export class ZmtpPeer {
  readonly socket: Socket;
  /** Bytes of the peer's greeting received so far, until all 64 are in. */
  greetingBytes: Buffer | undefined = NO_BYTES;
  decoder: FrameDecoder | undefined;
  ready = false;
  timer: NodeJS.Timeout | undefined;

  constructor(socket: Socket) {
    this.socket = socket;
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
  #server: Server | undefined;

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
    const server = createServer({ noDelay: true }, (socket) => this.#accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err: NodeJS.ErrnoException) => {
        const shown = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
        reject(err.code === 'EADDRINUSE' ? new SALT_ERR_BUS_ADDRESS_IN_USE(shown, { cause: err }) : err);
      });
      server.listen({ host, port, backlog: this.#backlog }, () => resolve());
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
    const gone = [...this.peers].map(
      (peer) =>
        new Promise<void>((resolve) =>
          peer.socket.closed ? resolve() : peer.socket.once('close', () => resolve()),
        ),
    );
    for (const peer of this.peers) peer.socket.destroy();
    await Promise.all(gone);
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Makes the per-connection state of a new peer. */
  protected abstract newPeer(socket: Socket): P;

  /** A message frame from a peer past its handshake. */
  protected abstract onFrame(peer: P, frame: Frame): void;

  /** A command after the handshake; PING and ERROR are handled here, others ignored. */
  protected onCommand(peer: P, name: string, data: Buffer): void {
    // PING carries a 2-byte TTL then a context of at most 16 bytes the PONG echoes (ZMTP 3.1)
    if (name === 'PING') peer.socket.write(encodeCommand('PONG', data.subarray(2, 18)));
    else if (name === 'ERROR') peer.socket.destroy();
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

  #accept(socket: Socket): void {
    if (this.#keepAliveIdleMs !== undefined) socket.setKeepAlive(true, this.#keepAliveIdleMs);
    const peer = this.newPeer(socket);
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
    let data = chunk;
    if (peer.greetingBytes) {
      const have = peer.greetingBytes.length === 0 ? data : Buffer.concat([peer.greetingBytes, data]);
      if (have.length < GREETING_BYTES) {
        // a peer that is not speaking ZMTP fails on its first byte, not after 64
        if (have[0] !== 0xff) throw new SALT_ERR_BUS_ZMTP('not a ZMTP 3 greeting');
        peer.greetingBytes = Buffer.from(have);
        return;
      }
      checkGreeting(have.subarray(0, GREETING_BYTES));
      peer.greetingBytes = undefined;
      peer.decoder = new FrameDecoder(Math.min(MAX_HANDSHAKE_FRAME_BYTES, this.maxFrameBytes));
      data = have.subarray(GREETING_BYTES);
      if (data.length === 0) return;
    }
    const decoder = peer.decoder as FrameDecoder;
    decoder.feed(data);
    for (let frame = decoder.next(); frame; frame = decoder.next()) {
      if (peer.socket.destroyed) return;
      if (frame.command) this.#command(peer, frame.body);
      else if (peer.ready) this.onFrame(peer, frame);
      else throw new SALT_ERR_BUS_ZMTP('message before READY');
    }
  }

  #command(peer: P, body: Buffer): void {
    const { name, data } = splitCommand(body);
    if (peer.ready) {
      this.onCommand(peer, name, data);
      return;
    }
    if (name !== 'READY') throw new SALT_ERR_BUS_ZMTP(`expected READY, got ${name}`);
    const metadata = parseMetadata(data);
    const type = metadata.get('socket-type') ?? '';
    if (!this.#peerTypes.has(type))
      throw new SALT_ERR_BUS_ZMTP(`a ${type || 'typeless'} socket cannot talk to this socket`);
    peer.ready = true;
    clearTimeout(peer.timer);
    peer.timer = undefined;
    (peer.decoder as FrameDecoder).maxFrameBytes = this.maxFrameBytes;
    this.onReady(peer, metadata);
  }
}
