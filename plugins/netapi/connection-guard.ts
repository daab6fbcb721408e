/**
 * Connection caps that keep descriptors for the API's users when clients hold connections
 * open without finishing a request (issue 27 item 14: 1,100 slow POSTs took all 1,024):
 * - a connection is unauthenticated until a request on it carries a valid token;
 * - at most `perAddress` unauthenticated connections per client address (client-address.ts):
 *   more are closed as they are accepted;
 * - at most `maxConnections - reserve` unauthenticated connections in all; past that a new
 *   connection is accepted on probation: its first request must carry a valid token, or it
 *   is answered 503 and closed, so the `reserve` serves authenticated users;
 * - at most `maxConnections` in all: the oldest connection on probation makes room for a new
 *   one (a client with a token sends its request at once; a slow one has had its turn),
 *   else the new one is closed.
 * Slow requests themselves are ended by the server's `headersTimeout` / `requestTimeout`.
 */
import type { Socket } from 'node:net';
import { clientAddress } from './client-address.js';

export interface ConnectionLimits {
  maxConnections: number;
  reserve: number;
  perAddress: number;
}

export interface ConnectionCounts {
  open: number;
  unauthenticated: number;
  probation: number;
  refused: number;
  evicted: number;
}

interface Conn {
  socket: Socket;
  address: string;
  state: 'unauthenticated' | 'probation' | 'authenticated';
}

/** The key of a socket's connection: its peer, the same for a TLS socket and the TCP one under it. */
function peerOf(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}

export class ConnectionGuard {
  readonly #limits: ConnectionLimits;
  /** Every open connection by peer; probation ones also in {@link #probation}, oldest first. */
  readonly #conns = new Map<string, Conn>();
  readonly #probation = new Set<Conn>();
  readonly #unauthByAddress = new Map<string, number>();
  #unauthenticated = 0;
  #refused = 0;
  #evicted = 0;

  constructor(limits: ConnectionLimits) {
    this.#limits = limits;
  }

  get counts(): ConnectionCounts {
    return {
      open: this.#conns.size,
      unauthenticated: this.#unauthenticated,
      probation: this.#probation.size,
      refused: this.#refused,
      evicted: this.#evicted,
    };
  }

  /** A TCP connection was accepted: keeps it (counted until it closes, true) or destroys it. */
  admit(socket: Socket): boolean {
    if (socket.remoteAddress === undefined) return this.#refuse(socket); // already gone
    const address = clientAddress(socket.remoteAddress);
    const peer = peerOf(socket);
    if ((this.#unauthByAddress.get(address) ?? 0) >= this.#limits.perAddress) return this.#refuse(socket);
    if (this.#conns.size >= this.#limits.maxConnections) {
      const oldest = this.#probation.values().next().value;
      if (!oldest) return this.#refuse(socket);
      this.#evicted++;
      this.#release(peerOf(oldest.socket), oldest);
      oldest.socket.destroy();
    }
    const onProbation = this.#unauthenticated >= this.#limits.maxConnections - this.#limits.reserve;
    const conn: Conn = { socket, address, state: onProbation ? 'probation' : 'unauthenticated' };
    this.#conns.set(peer, conn);
    this.#unauthByAddress.set(address, (this.#unauthByAddress.get(address) ?? 0) + 1);
    if (onProbation) this.#probation.add(conn);
    else this.#unauthenticated++;
    socket.once('close', () => this.#release(peer, conn));
    return true;
  }

  /** A request on `socket` carried a valid token: its connection no longer counts as unauthenticated. */
  authenticated(socket: Socket): void {
    const conn = this.#conns.get(peerOf(socket));
    if (!conn || conn.state === 'authenticated') return;
    this.#leaveUnauthenticated(conn);
    conn.state = 'authenticated';
  }

  /** Whether `socket`'s connection was accepted on probation and has not shown a token yet. */
  onProbation(socket: Socket): boolean {
    return this.#conns.get(peerOf(socket))?.state === 'probation';
  }

  #refuse(socket: Socket): false {
    this.#refused++;
    socket.destroy();
    return false;
  }

  #leaveUnauthenticated(conn: Conn): void {
    if (conn.state === 'authenticated') return;
    if (conn.state === 'probation') this.#probation.delete(conn);
    else this.#unauthenticated--;
    const n = (this.#unauthByAddress.get(conn.address) ?? 1) - 1;
    if (n > 0) this.#unauthByAddress.set(conn.address, n);
    else this.#unauthByAddress.delete(conn.address);
  }

  #release(peer: string, conn: Conn): void {
    if (this.#conns.get(peer) !== conn) return;
    this.#conns.delete(peer);
    this.#leaveUnauthenticated(conn);
    conn.state = 'authenticated'; // counted out once, whatever closes it later
  }
}
