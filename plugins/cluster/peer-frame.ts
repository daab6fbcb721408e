/**
 * The cluster's peer messages on `cluster_pool_port`: each a frame of a 4-byte big-endian length,
 * a 32-byte HMAC-SHA256 of the rest under the cluster key, and the message in Salt's msgpack
 * (`{ cluster, from, t, n, kind, body }`). A message is accepted when its signature holds, it
 * names this cluster, it is no older (or newer) than `cluster_peer_timeout`, and its nonce was
 * not seen within that time (a replayed frame is refused).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { packIpc, unpackIpc } from '../../kernel/util.js';

const SIG_BYTES = 32;
/** The largest message a peer may send (a publish load is far smaller). */
export const MAX_PEER_FRAME = 64 * 1024 * 1024;

export type PeerKind = 'hello' | 'publish' | 'event';

export interface PeerMessage {
  /** The cluster_id of the sender. */
  cluster: string;
  /** The master id of the sender. */
  from: string;
  /** When it was sent, ms since the epoch. */
  t: number;
  /** A nonce: the same (from, n) is refused within the replay window. */
  n: string;
  kind: PeerKind;
  body: Record<string, unknown>;
}

function sign(key: Buffer, data: Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

/** One message as a frame, signed with `key`. */
export function encodePeerFrame(
  key: Buffer,
  msg: Omit<PeerMessage, 't' | 'n'> & Partial<Pick<PeerMessage, 't' | 'n'>>,
): Buffer {
  const full: PeerMessage = { ...msg, t: msg.t ?? Date.now(), n: msg.n ?? randomBytes(12).toString('hex') };
  const packed = packIpc(full);
  const head = Buffer.alloc(4);
  head.writeUInt32BE(SIG_BYTES + packed.length);
  return Buffer.concat([head, sign(key, packed), packed]);
}

/** Splits a byte stream into frames; `onFrame` gets each frame's body (signature and message). */
export class FrameReader {
  #pending: Buffer[] = [];
  #size = 0;

  constructor(private readonly onFrame: (body: Buffer) => void) {}

  /** Feeds bytes; throws when a frame announces more than {@link MAX_PEER_FRAME} or less than a signature. */
  push(chunk: Buffer): void {
    this.#pending.push(chunk);
    this.#size += chunk.length;
    for (;;) {
      if (this.#size < 4) return;
      let buf = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending);
      this.#pending = [buf];
      const len = buf.readUInt32BE(0);
      if (len > MAX_PEER_FRAME || len < SIG_BYTES) throw new Error(`a frame of ${len} bytes`);
      if (buf.length < 4 + len) return;
      const body = buf.subarray(4, 4 + len);
      buf = buf.subarray(4 + len);
      this.#pending = buf.length > 0 ? [buf] : [];
      this.#size = buf.length;
      this.onFrame(body);
    }
  }
}

/** Checks frames against the cluster key, the cluster's name, the clock and the nonces seen. */
export class FrameVerifier {
  readonly #seen = new Map<string, number>();
  #pruned = 0;

  constructor(
    private readonly key: Buffer,
    private readonly cluster: string,
    private readonly windowMs: number,
  ) {}

  /** The message in `body`, or the reason it is refused. */
  verify(body: Buffer, now = Date.now()): PeerMessage | { refused: string } {
    const sig = body.subarray(0, SIG_BYTES);
    const packed = body.subarray(SIG_BYTES);
    if (!timingSafeEqual(sig, sign(this.key, packed)))
      return { refused: 'bad signature (another cluster key?)' };
    let msg: PeerMessage;
    try {
      msg = unpackIpc(packed) as PeerMessage;
    } catch {
      return { refused: 'undecodable message' };
    }
    if (typeof msg !== 'object' || msg === null || typeof msg.from !== 'string' || typeof msg.n !== 'string')
      return { refused: 'malformed message' };
    if (msg.cluster !== this.cluster) return { refused: `another cluster_id (${String(msg.cluster)})` };
    if (typeof msg.t !== 'number' || Math.abs(now - msg.t) > this.windowMs)
      return { refused: 'too old or from the future (clock skew past cluster_peer_timeout?)' };
    const nonce = `${msg.from}\u0000${msg.n}`;
    if (this.#seen.has(nonce)) return { refused: 'replayed message' };
    this.#prune(now);
    this.#seen.set(nonce, msg.t);
    return msg;
  }

  #prune(now: number): void {
    if (now - this.#pruned < 1000) return;
    this.#pruned = now;
    for (const [nonce, t] of this.#seen) if (now - t > this.windowMs) this.#seen.delete(nonce);
  }
}
