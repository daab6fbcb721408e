/**
 * Salt's symmetric envelope (`salt.crypt.Crypticle`): AES-192-CBC with PKCS#7 padding and a
 * random IV, authenticated with HMAC-SHA256 (encrypt-then-MAC), plus the `pickle::` msgpack
 * framing, the optional 32-char nonce and the publish serial (replay) check of `dumps`/`loads`.
 *
 * Wire layout: `IV(16) || AES-192-CBC(key[0:24], IV, plain + pad) || HMAC-SHA256(key[24:56], IV || ct)`.
 * An instance holds the two keys as 56 bytes of its own; each message then costs one cipher and
 * one HMAC context. (OpenSSL key objects were no faster per message, measured at 8.2-8.9 µs
 * either way for 300 bytes, and cost ~2 KiB of native memory per instance: a master keeps one
 * instance per minion.) A subclass may keep one context per direction ({@link Crypticle.cbc}).
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { SALT_ERR_CRYPT_AUTH_FAILED, SALT_ERR_CRYPT_KEY, SALT_ERR_CRYPT_NONCE } from '../errors.js';
import { packNetwork, unpackNetwork } from '../serial/index.js';
import { freshIv } from './random-pool.js';

const AES_KEY_BYTES = 24;
const HMAC_KEY_BYTES = 32;
const KEY_BYTES = AES_KEY_BYTES + HMAC_KEY_BYTES;
const BLOCK = 16;
const SIG = 32;
const NONCE_CHARS = 32;
const PICKLE_PAD = Buffer.from('pickle::', 'ascii');
const CIPHER = 'aes-192-cbc';
/** Standard base64 with optional padding (whitespace, as in key files, is removed first). */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A serial as it may come off the wire: msgpack ints decode to number or, past 2^53, bigint. */
type Serial = number | bigint;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * One Crypticle per key string. Instances are cheap to use but keep state: the last accepted
 * publish `serial` (see {@link Crypticle.loads}).
 * @example
 * const c = new Crypticle(Crypticle.generateKeyString());
 * c.loads(c.dumps({ fun: 'test.ping' })); // { fun: 'test.ping' }
 */
export class Crypticle {
  readonly #keyString: string;
  readonly #aesKey: Buffer;
  readonly #hmacKey: Buffer;
  #serial: Serial;

  /**
   * @param keyString base64 of 56 bytes (AES-192 key + HMAC-SHA256 key), as {@link Crypticle.generateKeyString} makes.
   * @param serial the last serial already seen (Salt's `Crypticle(..., serial=)`); default 0.
   * @throws SALT_ERR_CRYPT_KEY when the key string does not decode to 56 bytes.
   */
  constructor(keyString: string, serial: Serial = 0) {
    const b64 = typeof keyString === 'string' ? keyString.replace(/\s+/g, '') : '';
    const raw = BASE64.test(b64) ? Buffer.from(b64, 'base64') : Buffer.alloc(0);
    if (raw.length !== KEY_BYTES) {
      throw new SALT_ERR_CRYPT_KEY(`a Crypticle key string must hold ${KEY_BYTES} bytes, got ${raw.length}`);
    }
    this.#keyString = keyString;
    // one unpooled allocation: a pooled Buffer would keep its whole 8 KiB pool slab alive
    const own = Buffer.allocUnsafeSlow(KEY_BYTES);
    raw.copy(own);
    raw.fill(0);
    this.#aesKey = own.subarray(0, AES_KEY_BYTES);
    this.#hmacKey = own.subarray(AES_KEY_BYTES);
    this.#serial = serial;
  }

  /** A fresh key string: standard base64 of 56 random bytes (76 characters). */
  static generateKeyString(): string {
    return randomBytes(KEY_BYTES).toString('base64');
  }

  /** The key string this instance was made with (e.g. to hand it to a minion under OAEP). */
  get keyString(): string {
    return this.#keyString;
  }

  /** The last publish serial this instance accepted (0 at first). */
  get serial(): number {
    return Number(this.#serial);
  }

  /**
   * Encrypts and authenticates raw bytes. `iv` (16 bytes) is for reproducing vectors only;
   * by default a random IV is drawn (./random-pool.ts).
   */
  encrypt(plain: Buffer, iv?: Buffer): Buffer {
    if (iv !== undefined && iv.length !== BLOCK) {
      throw new SALT_ERR_CRYPT_KEY(`the AES-CBC IV must be ${BLOCK} bytes, got ${iv.length}`);
    }
    const ivBytes = iv ?? freshIv();
    const ctLen = (Math.floor(plain.length / BLOCK) + 1) * BLOCK;
    const out = Buffer.allocUnsafe(BLOCK + ctLen + SIG);
    const padded = Buffer.allocUnsafe(ctLen);
    padded.fill(ctLen - plain.length, plain.copy(padded));
    ivBytes.copy(out, 0);
    this.cbc(true, ivBytes, padded).copy(out, BLOCK);
    const end = BLOCK + ctLen;
    createHmac('sha256', this.#hmacKey).update(out.subarray(0, end)).digest().copy(out, end);
    return out;
  }

  /**
   * Checks the HMAC (constant time) and decrypts. Throws `SALT_ERR_CRYPT_AUTH_FAILED` on a bad
   * MAC, a length that cannot be IV + whole blocks + MAC, or bad padding.
   */
  decrypt(data: Buffer): Buffer {
    if (data.length < BLOCK + BLOCK + SIG || (data.length - BLOCK - SIG) % BLOCK !== 0) {
      throw new SALT_ERR_CRYPT_AUTH_FAILED();
    }
    const bodyEnd = data.length - SIG;
    const body = data.subarray(0, bodyEnd);
    const mac = createHmac('sha256', this.#hmacKey).update(body).digest();
    if (!timingSafeEqual(mac, data.subarray(bodyEnd))) throw new SALT_ERR_CRYPT_AUTH_FAILED();
    // padding checked here (the MAC is already): OpenSSL's would split update/final, then a join copies it all
    let plain: Buffer;
    try {
      plain = this.cbc(false, data.subarray(0, BLOCK), data.subarray(BLOCK, bodyEnd));
    } catch (cause) {
      throw new SALT_ERR_CRYPT_AUTH_FAILED({ cause });
    }
    const pad = plain[plain.length - 1] ?? 0; // plain holds at least one block
    if (pad < 1 || pad > BLOCK || plain.subarray(plain.length - pad).some((b) => b !== pad))
      throw new SALT_ERR_CRYPT_AUTH_FAILED();
    return plain.subarray(0, plain.length - pad);
  }

  /** AES-192-CBC of whole blocks (padding is added and checked around it); encrypting, `blocks` is scratch. */
  protected cbc(encrypt: boolean, iv: Buffer, blocks: Buffer): Buffer {
    return (encrypt ? createCipheriv : createDecipheriv)(CIPHER, this.#aesKey, iv)
      .setAutoPadding(false)
      .update(blocks);
  }

  /**
   * Serializes (`pickle::` + nonce + msgpack network form) and encrypts. A nonce is included
   * only when non-empty, as in Salt; request loads carry none, replies carry the request's.
   */
  dumps(obj: unknown, nonce?: string, iv?: Buffer): Buffer {
    const packed = packNetwork(obj);
    const parts = nonce ? [PICKLE_PAD, Buffer.from(nonce, 'utf8'), packed] : [PICKLE_PAD, packed];
    return this.encrypt(Buffer.concat(parts), iv);
  }

  /**
   * Decrypts and deserializes, following Salt's rules:
   * - plaintext without the `pickle::` prefix → `{}`;
   * - with a (non-empty) `nonce`, the next 32 bytes must equal it, else `SALT_ERR_CRYPT_NONCE`;
   * - a map carrying `serial` has it removed, and is accepted only if the serial is greater than
   *   the last one this instance accepted (which it then becomes); otherwise `{}` (replay).
   *   A serial that is not a number counts as a replay.
   */
  loads(data: Buffer, nonce?: string): unknown {
    const plain = this.decrypt(data);
    if (plain.length < PICKLE_PAD.length || !plain.subarray(0, PICKLE_PAD.length).equals(PICKLE_PAD)) {
      return {};
    }
    let offset = PICKLE_PAD.length;
    if (nonce) {
      const got = plain.subarray(offset, offset + NONCE_CHARS);
      if (!got.equals(Buffer.from(nonce, 'utf8'))) throw new SALT_ERR_CRYPT_NONCE();
      offset += NONCE_CHARS;
    }
    return this.#checkSerial(unpackNetwork(plain.subarray(offset), { exactFloats: true }));
  }

  #checkSerial(payload: unknown): unknown {
    let serial: unknown;
    if (payload instanceof Map) {
      if (!payload.has('serial')) return payload;
      serial = payload.get('serial');
      payload.delete('serial');
    } else if (isPlainObject(payload)) {
      if (!Object.hasOwn(payload, 'serial')) return payload;
      serial = payload.serial;
      delete payload.serial;
    } else {
      return payload;
    }
    if (typeof serial === 'boolean') serial = Number(serial);
    if ((typeof serial !== 'number' && typeof serial !== 'bigint') || Number.isNaN(serial)) return {};
    if (serial <= this.#serial) return {};
    this.#serial = serial;
    return payload;
  }
}
