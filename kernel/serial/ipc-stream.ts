/**
 * A reader for Salt's IPC byte stream (`salt.transport.ipc`): `{head, body}` msgpack maps
 * written back to back with no length prefix, read the way msgpack-python's streaming
 * `Unpacker` reads them.
 */
import { SALT_ERR_BUS_DECODE } from '../errors.js';
import { decodeIpcMessage, type IpcMessage } from './event-frame.js';
import { msgpackValueEnd } from './msgpack-scan.js';

/** Options of {@link IpcStreamDecoder}. */
export interface IpcStreamOptions {
  /** Largest message accepted, in bytes. Default 100 MiB (msgpack-python's `max_buffer_size`). */
  maxMessageSize?: number;
}

const DEFAULT_MAX = 100 * 1024 * 1024;

/**
 * Splits a byte stream into IPC messages. Feed it what the socket delivers; each complete
 * message is passed to `onMessage` in order, partial ones are kept for the next chunk.
 * @example
 * const reader = new IpcStreamDecoder();
 * socket.on('data', (chunk) => reader.push(chunk, (msg) => handle(decodeEventBody(msg.body as Buffer))));
 */
export class IpcStreamDecoder {
  readonly #max: number;
  #chunks: Buffer[] = [];
  #length = 0;
  /** Total buffered length needed before another parse attempt can succeed. */
  #need = 0;

  constructor(options: IpcStreamOptions = {}) {
    this.#max = options.maxMessageSize ?? DEFAULT_MAX;
  }

  /** Bytes buffered for a message not yet complete. */
  get pending(): number {
    return this.#length;
  }

  /**
   * Adds a chunk and delivers every message it completes. Throws `SALT_ERR_BUS_DECODE` when
   * the stream is corrupt or a message is larger than `maxMessageSize` (messages before the
   * bad one have already been delivered); the buffered bytes are then dropped, so the caller
   * should close the connection.
   */
  push(chunk: Uint8Array, onMessage: (message: IpcMessage) => void): void {
    if (chunk.length === 0) return;
    this.#chunks.push(
      Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
    );
    this.#length += chunk.length;
    if (this.#length < this.#need) return;
    const buf =
      this.#chunks.length === 1 ? (this.#chunks[0] as Buffer) : Buffer.concat(this.#chunks, this.#length);
    this.#chunks = [];
    this.#length = 0;
    this.#need = 0;
    let off = 0;
    while (off < buf.length) {
      let message: IpcMessage;
      try {
        const end = msgpackValueEnd(buf, off);
        if (end < 0) {
          const need = -end - off;
          if (need > this.#max) throw new SALT_ERR_BUS_DECODE(`IPC message: larger than ${this.#max} bytes`);
          this.#need = need;
          break;
        }
        if (end - off > this.#max)
          throw new SALT_ERR_BUS_DECODE(`IPC message: larger than ${this.#max} bytes`);
        message = decodeIpcMessage(buf.subarray(off, end));
        off = end;
      } catch (err) {
        this.#need = 0;
        throw err;
      }
      try {
        onMessage(message);
      } catch (err) {
        this.#keep(buf, off);
        throw err;
      }
    }
    this.#keep(buf, off);
  }

  /** Keeps the unfinished tail, copied so that the large chunk it came from can be freed. */
  #keep(buf: Buffer, off: number): void {
    if (off >= buf.length) return;
    const rest = Buffer.from(buf.subarray(off));
    this.#chunks = [rest];
    this.#length = rest.length;
  }
}
