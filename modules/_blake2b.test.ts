import { describe, expect, it } from 'vitest';
import { blake2b } from './_blake2b.js';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

// Expected digests: Python's hashlib.blake2b(data, digest_size=n).
describe('blake2b', () => {
  it('matches hashlib for short, block-sized and multi-block inputs at several lengths', () => {
    expect(hex(blake2b(new Uint8Array(0), 24))).toBe('ab3b5331a7135ed50d0f182d026e60abdb3646fd51bcf8a3');
    expect(hex(blake2b(Buffer.from('abc'), 24))).toBe('56a17e38cc371a46b12c32f18e0c61de2a84e9c2555b114e');
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hex(blake2b(all, 24))).toBe('d69cd6c11a0717c95ffca06a528d6109bc5f9daed3cc34c1');
    expect(hex(blake2b(new Uint8Array(128), 24))).toBe('9ff4abe3fc3c8006f8a2922a9ded93c51fcf063f0eccf365');
    expect(hex(blake2b(new Uint8Array(129), 32))).toBe(
      'baadfb64c3bd2cd187b54accc5e61a0720ed86bf48c28017873536cf9015d1b8',
    );
    expect(hex(blake2b(Buffer.from('abc'), 64))).toBe(
      'ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925ab92386edd4009923',
    );
  });

  it('refuses digest lengths outside 1..64', () => {
    expect(() => blake2b(new Uint8Array(1), 0)).toThrow(RangeError);
    expect(() => blake2b(new Uint8Array(1), 65)).toThrow(RangeError);
  });
});
