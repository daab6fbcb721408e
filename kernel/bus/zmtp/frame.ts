/**
 * ZMTP 3.0 framing (RFC 23/ZMTP): a frame is a flags byte (MORE 0x01, LONG 0x02, COMMAND 0x04),
 * a size (one byte, or eight big-endian bytes when LONG), then the body. Commands carry a
 * one-byte name length and the name before their data. The decoder is incremental: TCP hands
 * bytes over in arbitrary pieces, and a peer may only send frames up to a size we choose.
 */
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';

export const FLAG_MORE = 0x01;
export const FLAG_LONG = 0x02;
export const FLAG_COMMAND = 0x04;

export interface Frame {
  /** A command frame (READY, SUBSCRIBE, PING...) rather than a message part. */
  command: boolean;
  /** More parts of the same message follow. */
  more: boolean;
  body: Buffer;
  /** A data frame over the limit, skipped (FrameDecoder.skipOversized): its size; the body is empty. */
  oversized?: number;
}

/** The header (flags and size) of a frame of `size` bytes. */
export function frameHeader(size: number, flags: number): Buffer {
  if (size <= 0xff) return Buffer.from([flags, size]);
  const header = Buffer.allocUnsafe(9);
  header[0] = flags | FLAG_LONG;
  header.writeUInt32BE(Math.floor(size / 2 ** 32), 1);
  header.writeUInt32BE(size >>> 0, 5);
  return header;
}

/** One message (its parts in order) as wire bytes, ready to be written to any number of peers. */
export function encodeMessage(parts: readonly Uint8Array[]): Buffer {
  const chunks: Uint8Array[] = [];
  parts.forEach((part, i) => {
    chunks.push(frameHeader(part.length, i < parts.length - 1 ? FLAG_MORE : 0), part);
  });
  return Buffer.concat(chunks);
}

/** A command frame: `name` (at most 255 bytes) then its data. */
export function encodeCommand(name: string, data: Uint8Array = Buffer.alloc(0)): Buffer {
  const nameBytes = Buffer.from(name, 'latin1');
  const body = Buffer.concat([Buffer.from([nameBytes.length]), nameBytes, data]);
  return Buffer.concat([frameHeader(body.length, FLAG_COMMAND), body]);
}

/** A command's name and data, split from a command frame's body. */
export function splitCommand(body: Buffer): { name: string; data: Buffer } {
  const length = body[0];
  if (length === undefined || length === 0 || body.length < 1 + length)
    throw new SALT_ERR_BUS_ZMTP('command frame without a name');
  return { name: body.toString('latin1', 1, 1 + length), data: body.subarray(1 + length) };
}

const EMPTY = Buffer.alloc(0);

/**
 * `buf` itself when it is most of the memory behind it, else a copy of it: a small slice that
 * is kept (queued, or waiting for the rest of its frame) must not keep a whole socket read
 * of up to 64 KiB alive.
 */
export function unpinned(buf: Buffer): Buffer {
  return buf.buffer.byteLength > 2 * buf.length ? Buffer.from(buf) : buf;
}

/** Largest command frame accepted (READY's metadata, PING): far below any data limit. */
export const MAX_COMMAND_BYTES = 8 * 1024;

/**
 * Reassembles frames from a byte stream. Throws `SALT_ERR_BUS_ZMTP` on a frame over the limit
 * or on reserved flag bits, after which the stream is unusable. A frame that arrives in many
 * reads is joined once, when its last byte is in, not once per read. Frames are taken one at a
 * time ({@link next}) so that the limit can change between them (raised once a peer's READY
 * is in, when the next frame may already be in the same read).
 */
export class FrameDecoder {
  /** Largest data frame accepted; commands are held to {@link MAX_COMMAND_BYTES} too. */
  maxFrameBytes: number;
  /** A data frame over the limit is not refused: yielded at once flagged `oversized`, its bytes dropped as they come. */
  skipOversized = false;
  #skip = 0;
  #chunks: Buffer[] = [];
  #buffered = 0;
  /** Bytes the frame at the head needs in all (header included), once known. */
  #needed = 0;

  constructor(maxFrameBytes: number) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /** Bytes held back, waiting for the rest of a frame. */
  get buffered(): number {
    return this.#buffered;
  }

  /** Adds bytes; take the frames they complete with {@link next}. */
  feed(chunk: Buffer): void {
    const drop = Math.min(this.#skip, chunk.length);
    this.#skip -= drop;
    if (drop > 0) chunk = chunk.subarray(drop);
    if (chunk.length === 0) return;
    this.#buffered += chunk.length;
    this.#chunks.push(chunk);
  }

  /** The next complete frame, or undefined until more bytes come. */
  next(): Frame | undefined {
    if (this.#buffered === 0 || this.#needed > this.#buffered) return undefined;
    const buf = this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks);
    this.#chunks = [buf];
    const flags = buf[0] as number;
    if ((flags & 0xf8) !== 0)
      throw new SALT_ERR_BUS_ZMTP(`reserved frame flag bits set (0x${flags.toString(16)})`);
    const long = (flags & FLAG_LONG) !== 0;
    const headerLength = long ? 9 : 2;
    if (buf.length < headerLength) return this.#wait(buf, headerLength);
    // a long size above 2^32 is over any limit we set: read it as two 32-bit halves
    const size = long
      ? buf.readUInt32BE(1) === 0
        ? buf.readUInt32BE(5)
        : Number.POSITIVE_INFINITY
      : (buf[1] as number);
    const command = (flags & FLAG_COMMAND) !== 0;
    const limit = command ? Math.min(MAX_COMMAND_BYTES, this.maxFrameBytes) : this.maxFrameBytes;
    if (size > limit && (command || !this.skipOversized))
      throw new SALT_ERR_BUS_ZMTP(`frame larger than the limit of ${limit} bytes`);
    if (size > limit) return this.#skipFrame(buf.subarray(headerLength), size, (flags & FLAG_MORE) !== 0);
    const end = headerLength + size;
    if (buf.length < end) return this.#wait(buf, end);
    const rest = buf.subarray(end);
    this.#chunks = rest.length > 0 ? [rest] : [];
    this.#buffered = rest.length;
    this.#needed = 0;
    return {
      command,
      more: (flags & FLAG_MORE) !== 0,
      // an empty body (REQ's delimiter) must not keep the whole read buffer alive
      body: size === 0 ? EMPTY : buf.subarray(headerLength, end),
    };
  }

  /** Feeds bytes and returns every frame they complete. */
  push(chunk: Buffer): Frame[] {
    this.feed(chunk);
    const frames: Frame[] = [];
    for (let f = this.next(); f; f = this.next()) frames.push(f);
    return frames;
  }

  /** Drops an oversized frame's body: what is in (`body`), and the rest as it comes. */
  #skipFrame(body: Buffer, size: number, more: boolean): Frame {
    const rest = body.subarray(Math.min(size, body.length));
    this.#skip = size - (body.length - rest.length);
    [this.#chunks, this.#buffered, this.#needed] = [rest.length > 0 ? [rest] : [], rest.length, 0];
    return { command: false, more, body: EMPTY, oversized: size };
  }

  #wait(buf: Buffer, needed: number): undefined {
    this.#needed = needed;
    // a short tail is copied, so that it does not keep a large read buffer alive
    if (buf.length < 4096) this.#chunks = [unpinned(buf)];
    return undefined;
  }
}
