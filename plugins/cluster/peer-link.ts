/**
 * The sending side of the cluster channel to one peer: one TCP connection made from this
 * master's `interface` (so the peer sees the address it knows), made again after a loss with a
 * backoff of 0.5 s doubling to 10 s. Frames wait while it is down, at most `maxQueued` of them
 * (the oldest dropped past it and counted, as are those older than the peer would accept); a peer that never answers costs its own queue only.
 */
import { connect, type Socket } from 'node:net';
import type { Logger } from 'pino';
import type { PeerAddress } from './peer-address.js';

export interface PeerLinkOptions {
  peer: PeerAddress;
  /** The local address to connect from; undefined lets the system choose. */
  localAddress: string | undefined;
  log: Logger;
  maxQueued?: number;
  /** Frames queued longer than this (ms) are dropped at reconnection: the peer would refuse them as stale. */
  maxAgeMs: number;
  /** Sent first on each new connection (a hello). */
  greeting?: () => Buffer;
}

export class PeerLink {
  #socket: Socket | undefined;
  #connected = false;
  #queue: { frame: Buffer; at: number }[] = [];
  #backoff = 500;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;
  #downLogged = false;
  dropped = 0;

  constructor(private readonly o: PeerLinkOptions) {
    this.#dial();
  }

  get connected(): boolean {
    return this.#connected;
  }

  send(frame: Buffer): void {
    if (this.#closed) return;
    if (this.#connected && this.#socket) {
      this.#socket.write(frame);
      return;
    }
    this.#queue.push({ frame, at: Date.now() });
    const max = this.o.maxQueued ?? 10_000;
    if (this.#queue.length > max) {
      this.#queue.shift();
      this.dropped += 1;
    }
  }

  #dial(): void {
    if (this.#closed) return;
    const { host, port } = this.o.peer;
    const socket = connect({ host, port, localAddress: this.o.localAddress, timeout: 5000 });
    this.#socket = socket;
    socket.setNoDelay(true);
    socket.once('connect', () => {
      socket.setTimeout(0);
      socket.setKeepAlive(true, 10_000);
      this.#connected = true;
      this.#backoff = 500;
      if (this.#downLogged) this.o.log.info({ peer: this.o.peer.entry }, 'cluster peer reachable again');
      this.#downLogged = false;
      if (this.o.greeting) socket.write(this.o.greeting());
      const queued = this.#queue;
      this.#queue = [];
      const oldest = Date.now() - this.o.maxAgeMs;
      for (const q of queued) {
        if (q.at >= oldest) socket.write(q.frame);
        else this.dropped += 1;
      }
    });
    // the peer sends nothing back on this connection; its own link carries its messages
    socket.on('data', () => undefined);
    socket.once('timeout', () => socket.destroy(new Error('connection timed out')));
    socket.once('error', (err) => {
      if (!this.#downLogged)
        this.o.log.warn({ peer: this.o.peer.entry, err: err.message }, 'cluster peer unreachable; retrying');
      this.#downLogged = true;
    });
    socket.once('close', () => {
      this.#connected = false;
      this.#socket = undefined;
      if (this.#closed) return;
      this.#timer = setTimeout(() => this.#dial(), this.#backoff);
      this.#backoff = Math.min(this.#backoff * 2, 10_000);
    });
  }

  close(): void {
    this.#closed = true;
    clearTimeout(this.#timer);
    this.#socket?.destroy();
  }
}
