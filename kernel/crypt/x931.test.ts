import { createPrivateKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateRsaKeyPair } from './rsa.js';
import { modulusOf } from './rsa-key.js';
import { x931Pad, x931Recover, x931Sign, x931Unpad } from './x931.js';

const pair = generateRsaKeyPair(1024);
const other = generateRsaKeyPair(1024);
const K = 128;

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('X9.31 padding', () => {
  it('builds 6B BB..BB BA msg CC', () => {
    const block = x931Pad(Buffer.from('salt'), 16);
    expect(block.toString('hex')).toBe(`6b${'bb'.repeat(9)}ba${Buffer.from('salt').toString('hex')}cc`);
  });

  it('uses 6A when the message fills k - 2 bytes, and 6B BA when it fills k - 3', () => {
    expect(x931Pad(Buffer.alloc(14, 1), 16).toString('hex')).toBe(`6a${'01'.repeat(14)}cc`);
    expect(x931Pad(Buffer.alloc(13, 1), 16).toString('hex')).toBe(`6bba${'01'.repeat(13)}cc`);
  });

  it('refuses messages longer than k - 2', () => {
    expect(codeOf(() => x931Pad(Buffer.alloc(15), 16))).toBe('SALT_ERR_CRYPT_KEY');
  });

  it('unpads like OpenSSL', () => {
    expect(x931Unpad(x931Pad(Buffer.from('salt'), 16))?.toString()).toBe('salt');
    expect(x931Unpad(x931Pad(Buffer.alloc(14, 7), 16))).toEqual(Buffer.alloc(14, 7));
    // OpenSSL insists on at least one BB after 6B
    expect(x931Unpad(x931Pad(Buffer.alloc(13, 7), 16))).toBeUndefined();
    expect(x931Unpad(Buffer.from('6cbbba0102cc', 'hex'))).toBeUndefined();
    expect(x931Unpad(Buffer.from('6bbbbaa10102cd', 'hex'))).toBeUndefined();
    expect(x931Unpad(Buffer.from('6bbb01ba0102cc', 'hex'))).toBeUndefined();
    expect(x931Unpad(Buffer.from('6bbbba0102cc', 'hex'))?.toString('hex')).toBe('0102');
  });
});

describe('x931Sign / x931Recover', () => {
  it('round-trips and is deterministic', () => {
    const sig = x931Sign(pair.privatePem, Buffer.from('salt'));
    expect(sig.length).toBe(K);
    expect(x931Sign(pair.privatePem, Buffer.from('salt'))).toEqual(sig);
    expect(x931Recover(pair.publicPem, sig).toString()).toBe('salt');
  });

  it('returns min(s, n - s)', () => {
    const { n } = modulusOf(createPrivateKey(pair.privatePem));
    for (let i = 0; i < 8; i++) {
      const sig = x931Sign(pair.privatePem, Buffer.from(`message ${i}`));
      const s = BigInt(`0x${sig.toString('hex')}`);
      expect(s <= n - s).toBe(true);
      expect(x931Recover(pair.publicPem, sig).toString()).toBe(`message ${i}`);
    }
  });

  it('recovers a 64-byte hex digest (the _auth aes sig)', () => {
    const digest = Buffer.from('0e4cdb8ae8c386b6897c9c7dcd6dc0e52d023bb9cf7a50b678e743f7a3c10dd0');
    expect(x931Recover(pair.publicPem, x931Sign(pair.privatePem, digest))).toEqual(digest);
  });

  it('accepts a signature shorter than k (leading zero bytes dropped)', () => {
    let found = false;
    for (let i = 0; i < 3000 && !found; i++) {
      const sig = x931Sign(pair.privatePem, Buffer.from(`m${i}`));
      if (sig[0] !== 0) continue;
      expect(x931Recover(pair.publicPem, sig.subarray(1)).toString()).toBe(`m${i}`);
      found = true;
    }
    expect(found).toBe(true);
  });

  it('fails for the wrong key or a tampered signature', () => {
    const sig = x931Sign(pair.privatePem, Buffer.from('salt'));
    expect(codeOf(() => x931Recover(other.publicPem, sig))).toBe('SALT_ERR_CRYPT_DECRYPT');
    const bad = Buffer.from(sig);
    bad[K - 1] = (bad[K - 1] ?? 0) ^ 0x10;
    expect(codeOf(() => x931Recover(pair.publicPem, bad))).toBe('SALT_ERR_CRYPT_DECRYPT');
    expect(codeOf(() => x931Recover(pair.publicPem, Buffer.alloc(K + 1, 1)))).toBe('SALT_ERR_CRYPT_DECRYPT');
    expect(codeOf(() => x931Recover(pair.publicPem, Buffer.alloc(K, 0xff)))).toBe('SALT_ERR_CRYPT_DECRYPT');
  });

  it('throws SALT_ERR_CRYPT_KEY for malformed keys', () => {
    expect(codeOf(() => x931Sign('garbage', Buffer.from('salt')))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => x931Recover('garbage', Buffer.alloc(K)))).toBe('SALT_ERR_CRYPT_KEY');
  });
});
