/**
 * The reading side every ZMTP connection shares, server or client (./server.ts,
 * ./client-link.ts): the peer's 64-byte greeting, then frames, of which the first must be a
 * READY naming a socket type we may talk to. Until that READY, frames are held to
 * {@link HANDSHAKE_FRAME_BYTES}; after it, to the connection's own limit.
 */
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import { encodeCommand, type Frame, FrameDecoder, splitCommand } from './frame.js';
import { checkGreeting, GREETING_BYTES, parseMetadata } from './handshake.js';

/** Largest frame a peer may send before its READY: a greeting's worth of trust. */
export const HANDSHAKE_FRAME_BYTES = 8 * 1024;

/** What {@link ZmtpStream.next} returns once, when the peer's READY has been checked. */
export const READY: Frame = Object.freeze({ command: true, more: false, body: Buffer.alloc(0) });

const NO_BYTES = Buffer.alloc(0);

export class ZmtpStream {
  ready = false;
  /** The peer's READY metadata (names lower-cased), once {@link ready}. */
  metadata: Map<string, string> | undefined;
  readonly #peerTypes: ReadonlySet<string>;
  readonly #maxFrameBytes: number;
  #greeting: Buffer | undefined = NO_BYTES;
  readonly #decoder: FrameDecoder;

  /** `peerTypes`: the socket types that may talk to ours; `maxFrameBytes`: the limit after READY. */
  constructor(peerTypes: ReadonlySet<string>, maxFrameBytes: number, skipOversized = false) {
    this.#peerTypes = peerTypes;
    this.#maxFrameBytes = maxFrameBytes;
    this.#decoder = new FrameDecoder(Math.min(HANDSHAKE_FRAME_BYTES, maxFrameBytes));
    this.#decoder.skipOversized = skipOversized; // a skipped frame before READY fails the handshake
  }

  /** Adds bytes read from the connection. Throws `SALT_ERR_BUS_ZMTP` on a bad greeting. */
  feed(chunk: Buffer): void {
    let data = chunk;
    if (this.#greeting) {
      const have = this.#greeting.length === 0 ? data : Buffer.concat([this.#greeting, data]);
      if (have.length < GREETING_BYTES) {
        // a peer that is not speaking ZMTP fails on its first byte, not after 64
        if (have[0] !== 0xff) throw new SALT_ERR_BUS_ZMTP('not a ZMTP 3 greeting');
        this.#greeting = Buffer.from(have);
        return;
      }
      checkGreeting(have.subarray(0, GREETING_BYTES));
      this.#greeting = undefined;
      data = have.subarray(GREETING_BYTES);
    }
    this.#decoder.feed(data);
  }

  /**
   * The next frame: {@link READY} once the peer's READY is in and its socket type checked, then
   * every frame after it, commands included. Throws `SALT_ERR_BUS_ZMTP` on anything else first.
   */
  next(): Frame | undefined {
    const frame = this.#decoder.next();
    if (!frame || this.ready) return frame;
    if (!frame.command) throw new SALT_ERR_BUS_ZMTP('message before READY');
    const { name, data } = splitCommand(frame.body);
    if (name !== 'READY') throw new SALT_ERR_BUS_ZMTP(`expected READY, got ${name}`);
    const metadata = parseMetadata(data);
    const type = metadata.get('socket-type') ?? '';
    if (!this.#peerTypes.has(type))
      throw new SALT_ERR_BUS_ZMTP(`a ${type || 'typeless'} socket cannot talk to this socket`);
    this.ready = true;
    this.metadata = metadata;
    this.#decoder.maxFrameBytes = this.#maxFrameBytes;
    return READY;
  }
}

/**
 * The answer to a command after the handshake: PONG for a PING (its 2-byte TTL dropped, the
 * context cut to 16 bytes), `'close'` for ERROR, nothing for the rest.
 */
export function answerCommand(name: string, data: Buffer): Buffer | 'close' | undefined {
  if (name === 'PING') return encodeCommand('PONG', data.subarray(2, 18));
  if (name === 'ERROR') return 'close';
  return undefined;
}
