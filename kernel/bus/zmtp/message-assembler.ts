/**
 * Joins frames into messages for the sockets that take multi-part messages from a peer (the
 * router's requests, the clients' replies and publishes), within a size and a part count: an
 * empty part still costs memory, so each counts {@link PART_OVERHEAD_BYTES} besides its bytes.
 */
import { SALT_ERR_BUS_ZMTP } from '../../errors.js';
import type { Frame } from './frame.js';

/** Parts a message may have: Salt's REQ sends 2, its PUB 1 or 2; more is a broken or hostile peer. */
export const MAX_PARTS = 64;
export const PART_OVERHEAD_BYTES = 64;

export class MessageAssembler {
  readonly #maxBytes: number;
  readonly #prefix: Buffer | undefined;
  #parts: Buffer[];
  #bytes = 0;

  /** `prefix`: a part put first in every message (the router's routing id), counted as a part. */
  constructor(maxBytes: number, prefix?: Buffer) {
    this.#maxBytes = maxBytes;
    this.#prefix = prefix;
    this.#parts = prefix ? [prefix] : [];
  }

  /** Adds a message frame; returns the whole message with its last part, else undefined. */
  add(frame: Frame): Buffer[] | undefined {
    this.#parts.push(frame.body);
    this.#bytes += frame.body.length + PART_OVERHEAD_BYTES;
    if (this.#bytes > this.#maxBytes)
      throw new SALT_ERR_BUS_ZMTP(`message larger than the limit of ${this.#maxBytes} bytes`);
    if (this.#parts.length > MAX_PARTS)
      throw new SALT_ERR_BUS_ZMTP(`message of more than ${MAX_PARTS} parts`);
    if (frame.more) return undefined;
    const parts = this.#parts;
    this.#parts = this.#prefix ? [this.#prefix] : [];
    this.#bytes = 0;
    return parts;
  }
}
