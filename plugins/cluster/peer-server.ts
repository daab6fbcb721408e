/**
 * The cluster's listening side (Salt 3007's cluster pool port): a TCP server on
 * `interface:cluster_pool_port` that takes signed messages from the masters in
 * `cluster_peers`. A connection from any other address is closed at once; a frame with a bad
 * signature, another cluster's name, a stale time or a seen nonce closes its connection. Each
 * refusal is logged at warning with CLUSTER_ERR_PEER_REFUSED; the master goes on serving.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { Logger } from 'pino';
import { CLUSTER_ERR_PEER_REFUSED } from './errors.js';
import type { PeerAddress } from './peer-address.js';
import { plainAddress } from './peer-address.js';
import { FrameReader, type FrameVerifier, type PeerMessage } from './peer-frame.js';

export interface PeerServerOptions {
  host: string;
  port: number;
  /** The addresses peers may connect from. */
  sources: ReadonlyMap<string, PeerAddress>;
  verifier: FrameVerifier;
  log: Logger;
  onMessage(msg: PeerMessage, peer: PeerAddress): void;
}

export class PeerServer {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  /** Refusals so far (a test and the log can tell). */
  refused = 0;

  constructor(private readonly o: PeerServerOptions) {
    this.#server = createServer((socket) => this.#accept(socket));
  }

  listen(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#server.once('error', reject);
      this.#server.listen({ host: this.o.host, port: this.o.port }, () => {
        this.#server.off('error', reject);
        this.#server.on('error', (err) =>
          this.o.log.error({ err: err.message }, 'cluster peer server failed'),
        );
        resolve();
      });
    });
  }

  #refuse(socket: Socket, from: string, why: string): void {
    this.refused += 1;
    const err = new CLUSTER_ERR_PEER_REFUSED(from, why);
    this.o.log.warn({ code: err.code, from }, err.message);
    socket.destroy();
  }

  #accept(socket: Socket): void {
    const from = plainAddress(socket.remoteAddress);
    const peer = this.o.sources.get(from);
    if (!peer) {
      this.#refuse(socket, from, 'the address is not in cluster_peers');
      return;
    }
    this.#sockets.add(socket);
    socket.setKeepAlive(true, 10_000);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', (err) =>
      this.o.log.debug({ from, err: err.message }, 'cluster peer connection failed'),
    );
    const reader = new FrameReader((body) => {
      if (socket.destroyed) return;
      const msg = this.o.verifier.verify(body);
      if ('refused' in msg) {
        this.#refuse(socket, from, msg.refused);
        return;
      }
      this.o.onMessage(msg, peer);
    });
    socket.on('data', (chunk: Buffer) => {
      try {
        reader.push(chunk);
      } catch (err) {
        this.#refuse(socket, from, (err as Error).message);
      }
    });
  }

  async close(): Promise<void> {
    for (const s of this.#sockets) s.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}
