/**
 * A Crypticle that keeps one AES context per direction for all its messages, instead of one
 * per message: AES's CPU per message falls by a third to a half (`node dist/bench/job-floor.js`,
 * `aesUs` against `aesKeptUs`). CBC chains on from a context's last ciphertext block, so the first
 * block of each message is XORed with that block and with the message's own IV: the bytes are
 * those a fresh context makes. A context costs ~1.5 KiB of native memory, so this is for a
 * minion's session and publish keys and the publisher's one key, not the master's key per minion.
 */
import { type Cipher, createCipheriv, createDecipheriv, type Decipher } from 'node:crypto';
import { Crypticle } from '../kernel/crypt/crypticle.js';

const BLOCK = 16;
const CIPHER = 'aes-192-cbc';
const AES_KEY_BYTES = 24;

/** A kept context and the last ciphertext block it chained from. */
interface Chain<T> {
  ctx: T;
  last: Buffer;
}

export class KeptCrypticle extends Crypticle {
  #enc: Chain<Cipher> | undefined;
  #dec: Chain<Decipher> | undefined;

  protected override cbc(encrypt: boolean, iv: Buffer, blocks: Buffer): Buffer {
    try {
      return encrypt ? this.#encrypt(iv, blocks) : this.#decrypt(iv, blocks);
    } catch (err) {
      // a context an error left in the middle of a message is not used again
      this.#enc = undefined;
      this.#dec = undefined;
      throw err;
    }
  }

  #encrypt(iv: Buffer, blocks: Buffer): Buffer {
    this.#enc ??= this.#chain((key) => createCipheriv(CIPHER, key, Buffer.alloc(BLOCK)));
    const { ctx, last } = this.#enc;
    for (let i = 0; i < BLOCK; i++)
      blocks[i] = (blocks[i] as number) ^ (iv[i] as number) ^ (last[i] as number);
    const out = ctx.update(blocks);
    out.copy(last, 0, out.length - BLOCK);
    return out;
  }

  #decrypt(iv: Buffer, blocks: Buffer): Buffer {
    this.#dec ??= this.#chain((key) => createDecipheriv(CIPHER, key, Buffer.alloc(BLOCK)));
    const { ctx, last } = this.#dec;
    const out = ctx.update(blocks);
    for (let i = 0; i < BLOCK; i++) out[i] = (out[i] as number) ^ (iv[i] as number) ^ (last[i] as number);
    blocks.copy(last, 0, blocks.length - BLOCK);
    return out;
  }

  /** A context with padding off, from the AES key in the key string (which the constructor checked). */
  #chain<T extends Cipher | Decipher>(make: (key: Buffer) => T): Chain<T> {
    const raw = Buffer.from(this.keyString.replace(/\s+/g, ''), 'base64');
    const ctx = make(raw.subarray(0, AES_KEY_BYTES));
    raw.fill(0);
    ctx.setAutoPadding(false);
    return { ctx, last: Buffer.alloc(BLOCK) };
  }
}
