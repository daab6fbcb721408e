import { describe, expect, it } from 'vitest';
import {
  generateKeyPair,
  NaclDecryptError,
  NaclKeyError,
  publicKeyOf,
  sealedBoxDecrypt,
  sealedBoxEncrypt,
  secretBoxDecrypt,
  secretBoxEncrypt,
} from './_nacl-box.js';

const b = (s: string) => Buffer.from(s, 'base64');
const SK = b('0bEtqylDHRfD6TgLJYLUk/bS6Vc4YP4r2fRHk8blT0s=');
const PK = b('mPggpYuiyVv8lyDr7KQl7MBVk31RunUtsJm1yrsCGig=');
const SK2 = b('5ziaeGQNaN1K5nzx9B+8ifbyWaU7EtLuuDzzz4teckY=');
const text = (u: Uint8Array) => Buffer.from(u).toString('utf8');

// The ciphertexts were made by PyNaCl 1.5 (libsodium), the library Salt's nacl module uses.
describe('NaCl boxes compatible with PyNaCl', () => {
  it('derives the public key PyNaCl derives', () => {
    expect(Buffer.from(publicKeyOf(SK)).toString('base64')).toBe(PK.toString('base64'));
    expect(Buffer.from(publicKeyOf(SK2)).toString('base64')).toBe(
      'imoZ7FS5yafpzAf/QTzXJ/Hus12fVw7jxPkT4eXXsFc=',
    );
  });

  it("opens PyNaCl's sealed boxes (libsodium crypto_box_seal) and secret boxes", () => {
    expect(
      text(
        sealedBoxDecrypt(b('sjX5qjTB1h3p61KlBVHHVsVXYTkjIbvI/1NYJm13OWEzvujI/zTNhrdPTSPeRWK/FrWux4M='), SK),
      ),
    ).toBe('hello');
    expect(
      sealedBoxDecrypt(b('Yg3edUNn75qGKmTqULBAlJk9Ehlhjdp4g5NNmBifUXAvlc6M8tFhEDA5faZpDrhz'), SK).length,
    ).toBe(0);
    expect(
      text(secretBoxDecrypt(b('5YlbgWNL4x2fTLncmcJG9h2A9rxe28nhC/SoXM0qtI8frb4F+o1S7Y+tlwKNnYnFZBw='), SK2)),
    ).toBe('pässwörd');
  });

  it('round-trips, with the layout libsodium writes: 32-byte key or 24-byte nonce, 16-byte tag', () => {
    const m = Buffer.from('x'.repeat(300));
    const sealed = sealedBoxEncrypt(m, PK);
    expect(sealed.length).toBe(32 + 16 + 300);
    expect(text(sealedBoxDecrypt(sealed, SK))).toBe(m.toString());
    const boxed = secretBoxEncrypt(m, SK2);
    expect(boxed.length).toBe(24 + 16 + 300);
    expect(text(secretBoxDecrypt(boxed, SK2))).toBe(m.toString());
    const kp = generateKeyPair();
    expect(Buffer.from(publicKeyOf(kp.sk)).equals(Buffer.from(kp.pk))).toBe(true);
  });

  it('refuses the wrong key, altered data and keys of the wrong size', () => {
    const sealed = sealedBoxEncrypt(Buffer.from('hi'), PK);
    expect(() => sealedBoxDecrypt(sealed, SK2)).toThrow(NaclDecryptError);
    sealed[40] = (sealed[40] as number) ^ 1;
    expect(() => sealedBoxDecrypt(sealed, SK)).toThrow('An error occurred trying to decrypt the message');
    expect(() => secretBoxDecrypt(secretBoxEncrypt(Buffer.from('hi'), SK), SK2)).toThrow(NaclDecryptError);
    expect(() => sealedBoxEncrypt(Buffer.from('hi'), PK.subarray(1))).toThrow(NaclKeyError);
  });
});
