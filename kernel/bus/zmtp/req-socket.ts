/**
 * A ZMTP 3.0 REQ socket over one Node TCP connection: the minion's and the clients' end of
 * Salt's request channel (`ret_port`). It speaks to a libzmq ROUTER (a Salt master) and to
 * tsalt's own (./router-server.ts) the way libzmq's REQ does: greeting, READY with
 * `Socket-Type: REQ`, then each request as an empty delimiter and the body, each reply the same.
 *
 * Why not zeromq.js's REQ: a round trip through it costs ~120 µs of CPU a side on this class of
 * machine (the addon's poller, libzmq's mailbox and I/O thread hand-offs), and every job a
 * minion runs makes one. One request is outstanding at a time; the caller queues
 * (../req-client.ts). A connection that fails is made again on the next request, every
 * `reconnectMs` until that request's deadline, as libzmq's REQ reconnects.
 */
import { SALT_ERR_BUS_TIMEOUT, SALT_ERR_BUS_ZMTP, type SaltError } from '../../errors.js';
import { ClientLink } from './client-link.js';
import { encodeMessage } from './frame.js';

const DELIMITER = Buffer.alloc(0);
const REPLIER_TYPES = new Set(['ROUTER', 'REP']);

export interface ZmtpRequesterOptions {
  host: string;
  port: number;
  /** Wait between connection attempts (ms); doubles up to `reconnectMaxMs`. */
  reconnectMs?: number;
  reconnectMaxMs?: number;
  /** Largest reply accepted (bytes). */
  maxReplyBytes?: number;
}

interface Pending {
  resolve: (reply: Buffer) => void;
  reject: (err: Error) => void;
}

export class ZmtpRequester {
  readonly #opts: Required<ZmtpRequesterOptions>;
  #link: ClientLink | undefined;
  #pending: Pending | undefined;
  /** A request is in progress (connecting, sent or waiting): REQ allows one at a time. */
  #busy = false;
  #closed = false;

  constructor(opts: ZmtpRequesterOptions) {
    this.#opts = { reconnectMs: 100, reconnectMaxMs: 5000, maxReplyBytes: 256 * 1024 * 1024, ...opts };
  }

  /**
   * Sends one request and resolves with the reply's body. Rejects with `SALT_ERR_BUS_TIMEOUT`
   * (code `EAGAIN` in `cause`, as zeromq.js does) when no reply came within `timeoutMs`; the
   * connection is then dropped, since a REQ socket cannot send again before its reply.
   */
  async request(body: Buffer, timeoutMs: number): Promise<Buffer> {
    if (this.#busy) throw new SALT_ERR_BUS_ZMTP('a request is already outstanding on this socket');
    this.#busy = true;
    try {
      return await this.#exchange(body, timeoutMs);
    } finally {
      this.#busy = false;
    }
  }

  async #exchange(body: Buffer, timeoutMs: number): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    const link = await this.#connected(deadline, timeoutMs);
    return new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(
        () => {
          this.#pending = undefined;
          this.#drop(link);
          reject(timeout(timeoutMs));
        },
        Math.max(0, deadline - Date.now()),
      );
      this.#pending = {
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      link.socket.write(encodeMessage([DELIMITER, body]));
    });
  }

  close(): void {
    this.#closed = true;
    if (this.#link) this.#drop(this.#link);
    this.#pending?.reject(new SALT_ERR_BUS_TIMEOUT('request (socket closed)', 0));
    this.#pending = undefined;
  }

  /** A connection that finished its handshake, made (again) as needed until `deadline`. */
  async #connected(deadline: number, timeoutMs: number): Promise<ClientLink> {
    let wait = this.#opts.reconnectMs;
    for (;;) {
      if (this.#closed) throw new SALT_ERR_BUS_TIMEOUT('request (socket closed)', 0);
      const link = this.#link ?? this.#open();
      // the usual case, a connection already up: no deadline timer and race per request
      if (link.ready && !link.socket.destroyed) return link;
      try {
        await withDeadline(link.handshake, deadline, timeoutMs);
        if (this.#link === link && !link.socket.destroyed) return link;
      } catch (err) {
        if ((err as SaltError).code === 'SALT_ERR_BUS_TIMEOUT') {
          this.#drop(link);
          throw err;
        }
      }
      // refused or reset before the handshake finished: try again, as libzmq reconnects
      const left = deadline - Date.now();
      if (left <= 0) throw timeout(timeoutMs);
      await new Promise((r) => setTimeout(r, Math.min(wait, left)));
      wait = Math.min(wait * 2, this.#opts.reconnectMaxMs);
    }
  }

  #open(): ClientLink {
    const link: ClientLink = new ClientLink({
      host: this.#opts.host,
      port: this.#opts.port,
      socketType: 'REQ',
      peerTypes: REPLIER_TYPES,
      maxMessageBytes: this.#opts.maxReplyBytes,
      onMessage: (parts) => {
        // a REQ reply starts with the empty delimiter; anything else is dropped, as libzmq does
        if (parts.length < 2 || (parts[0] as Buffer).length !== 0) return;
        const pending = this.#pending;
        this.#pending = undefined;
        pending?.resolve(parts[1] as Buffer);
      },
      onClose: (err) => this.#fail(link, err),
    });
    this.#link = link;
    return link;
  }

  /**
   * The connection is gone. A request waiting on it can get no reply (libzmq's REQ would wait
   * out its timeout): it fails now as a retryable timeout, so the caller sends it again.
   */
  #fail(link: ClientLink, err: Error): void {
    if (this.#link !== link) return;
    this.#drop(link);
    const pending = this.#pending;
    this.#pending = undefined;
    pending?.reject(retryable('request (the connection was lost before the reply)', 0, err));
  }

  #drop(link: ClientLink): void {
    if (this.#link === link) this.#link = undefined;
    link.destroy();
  }
}

/** A failure the caller may retry: `SALT_ERR_BUS_TIMEOUT` whose cause has code `EAGAIN`. */
function retryable(what: string, ms: number, why?: Error): Error {
  const cause = Object.assign(new Error(why?.message ?? 'timed out'), { code: 'EAGAIN', cause: why });
  return new SALT_ERR_BUS_TIMEOUT(what, ms, { cause });
}

function timeout(ms: number): Error {
  return retryable('request', ms);
}

/** True for the failures {@link ZmtpRequester.request} marks as worth another try. */
export function isRetryable(err: unknown): boolean {
  return (err as { cause?: { code?: string } }).cause?.code === 'EAGAIN';
}

async function withDeadline<T>(p: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timeout(timeoutMs)), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([p, expired]);
  } finally {
    clearTimeout(timer);
  }
}
