import { createCipheriv, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Crypticle } from '../kernel/crypt/crypticle.js';
import { SALT_ERR_CRYPT_AUTH_FAILED } from '../kernel/errors.js';
import { KeptCrypticle } from './kept-crypticle.js';

const KEY = Crypticle.generateKeyString();
const LENGTHS = [0, 1, 15, 16, 17, 100, 4096, 33, 250];

/** A message with a valid MAC whose last byte is not PKCS#7 padding. */
function badlyPadded(): Buffer {
  const raw = Buffer.from(KEY, 'base64');
  const iv = Buffer.alloc(16, 9);
  const cipher = createCipheriv('aes-192-cbc', raw.subarray(0, 24), iv).setAutoPadding(false);
  const body = Buffer.concat([iv, cipher.update(Buffer.alloc(32, 0)), cipher.final()]);
  return Buffer.concat([body, createHmac('sha256', raw.subarray(24)).update(body).digest()]);
}

describe('KeptCrypticle', () => {
  it('seals byte for byte as a fresh context per message does, message after message', () => {
    const kept = new KeptCrypticle(KEY);
    const fresh = new Crypticle(KEY);
    for (const [i, n] of [...LENGTHS, ...LENGTHS].entries()) {
      const plain = Buffer.alloc(n, i + 1);
      const iv = Buffer.alloc(16, 40 + i);
      expect(kept.encrypt(plain, iv).equals(fresh.encrypt(plain, iv))).toBe(true);
      expect(plain.equals(Buffer.alloc(n, i + 1))).toBe(true);
    }
  });

  it('opens what others sealed, in any order, after a refused or badly padded message too', () => {
    const kept = new KeptCrypticle(KEY);
    const other = new Crypticle(KEY);
    for (const n of LENGTHS) {
      const plain = Buffer.alloc(n, n % 251);
      const sealed = other.encrypt(plain);
      const copy = Buffer.from(sealed);
      expect(kept.decrypt(sealed).equals(plain)).toBe(true);
      expect(sealed.equals(copy)).toBe(true);
      const flipped = Buffer.from(sealed);
      flipped[flipped.length - 1] = (flipped[flipped.length - 1] ?? 0) ^ 1;
      expect(() => kept.decrypt(flipped)).toThrow(SALT_ERR_CRYPT_AUTH_FAILED);
      expect(() => kept.decrypt(badlyPadded())).toThrow(SALT_ERR_CRYPT_AUTH_FAILED);
      expect(other.decrypt(kept.encrypt(plain)).equals(plain)).toBe(true);
    }
  });

  it('carries dumps/loads, nonces and the serial check as a Crypticle does', () => {
    const kept = new KeptCrypticle(KEY);
    const other = new Crypticle(KEY);
    expect(kept.loads(other.dumps({ a: 1, serial: 5 }))).toEqual({ a: 1 });
    expect(kept.loads(other.dumps({ a: 2, serial: 5 }))).toEqual({});
    const nonce = 'n'.repeat(32);
    expect(other.loads(kept.dumps({ b: [1, 'x'] }, nonce), nonce)).toEqual({ b: [1, 'x'] });
  });
});
