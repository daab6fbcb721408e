/** The publish serial reservation, so a restarted publisher never reuses a serial with one AES key. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeSecret } from './secret-file.js';

/**
 * Hands out publish serials in blocks: the next block's end is written to disk before any
 * serial of it is used, so after a crash the publisher resumes past every serial it may
 * have sent with this key.
 */
export class SerialReservation {
  static readonly BLOCK = 1000;
  readonly #path: string;
  #generation = '';
  #next = 1;
  #reservedUpTo = 0;

  constructor(cachedir: string) {
    this.#path = join(cachedir, '.aes_serial');
  }

  /** Starts (or restarts) counting for a key generation. */
  async reset(generation: string): Promise<void> {
    this.#generation = generation;
    this.#next = 1;
    this.#reservedUpTo = 0;
    try {
      const saved = JSON.parse(await readFile(this.#path, 'utf8')) as { generation: string; upTo: number };
      if (saved.generation === generation) this.#next = saved.upTo + 1;
    } catch {
      // no reservation yet for any key
    }
    await this.#reserve();
  }

  async #reserve(): Promise<void> {
    this.#reservedUpTo = this.#next + SerialReservation.BLOCK - 1;
    await writeSecret(this.#path, JSON.stringify({ generation: this.#generation, upTo: this.#reservedUpTo }));
  }

  /** The next serial for a publish. */
  async next(): Promise<number> {
    if (this.#next > this.#reservedUpTo) await this.#reserve();
    return this.#next++;
  }
}
