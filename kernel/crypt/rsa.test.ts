import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type EncAlgo,
  generateRsaKeyPair,
  generateRsaKeyPairAsync,
  isEncAlgo,
  isSigAlgo,
  oaepDecrypt,
  oaepEncrypt,
  privateKeyOf,
  publicKeyOf,
  rsaSign,
  rsaVerify,
  type SigAlgo,
} from './rsa.js';

const pair = generateRsaKeyPair(1024);
const other = generateRsaKeyPair(1024);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

describe('generateRsaKeyPair', () => {
  it('writes PKCS#1 private and SPKI public PEM with e = 65537', () => {
    expect(pair.privatePem.startsWith('-----BEGIN RSA PRIVATE KEY-----\n')).toBe(true);
    expect(pair.privatePem.endsWith('-----END RSA PRIVATE KEY-----\n')).toBe(true);
    expect(pair.publicPem.startsWith('-----BEGIN PUBLIC KEY-----\n')).toBe(true);
    const jwk = createPublicKey(pair.publicPem).export({ format: 'jwk' });
    expect(jwk.e).toBe('AQAB');
    expect(createPrivateKey(pair.privatePem).asymmetricKeyDetails?.modulusLength).toBe(1024);
  });

  it('has an async variant', async () => {
    const p = await generateRsaKeyPairAsync(1024);
    expect(createPublicKey(p.privatePem).export({ type: 'spki', format: 'pem' })).toBe(p.publicPem);
  });

  it('refuses silly sizes', () => {
    expect(codeOf(() => generateRsaKeyPair(100))).toBe('SALT_ERR_CRYPT_KEY');
  });
});

describe('OAEP', () => {
  it.each<EncAlgo>(['OAEP-SHA1', 'OAEP-SHA224'])('round-trips with %s', (algo) => {
    const msg = Buffer.from('a 76 char key string would go here');
    const ct = oaepEncrypt(pair.publicPem, msg, algo);
    expect(ct.length).toBe(128);
    expect(oaepDecrypt(pair.privatePem, ct, algo)).toEqual(msg);
  });

  it('defaults to OAEP-SHA1', () => {
    const ct = oaepEncrypt(pair.publicPem, Buffer.from('x'));
    expect(oaepDecrypt(pair.privatePem, ct, 'OAEP-SHA1').toString()).toBe('x');
  });

  it('fails with the wrong key, the wrong hash or a tampered ciphertext', () => {
    const ct = oaepEncrypt(pair.publicPem, Buffer.from('secret'));
    expect(codeOf(() => oaepDecrypt(other.privatePem, ct))).toBe('SALT_ERR_CRYPT_DECRYPT');
    expect(codeOf(() => oaepDecrypt(pair.privatePem, ct, 'OAEP-SHA224'))).toBe('SALT_ERR_CRYPT_DECRYPT');
    const bad = Buffer.from(ct);
    bad[10] = (bad[10] ?? 0) ^ 1;
    expect(codeOf(() => oaepDecrypt(pair.privatePem, bad))).toBe('SALT_ERR_CRYPT_DECRYPT');
  });

  it('rejects unknown algorithms', () => {
    expect(codeOf(() => oaepEncrypt(pair.publicPem, Buffer.from('x'), 'OAEP-SHA256' as EncAlgo))).toBe(
      'SALT_ERR_CRYPT_ALGO',
    );
    expect(codeOf(() => oaepDecrypt(pair.privatePem, Buffer.alloc(128), 'PKCS1v15' as EncAlgo))).toBe(
      'SALT_ERR_CRYPT_ALGO',
    );
  });

  it('refuses a message too long for the key', () => {
    expect(codeOf(() => oaepEncrypt(pair.publicPem, Buffer.alloc(200)))).toBe('SALT_ERR_CRYPT_KEY');
  });
});

describe('PKCS#1 v1.5 signatures', () => {
  it.each<SigAlgo>(['PKCS1v15-SHA1', 'PKCS1v15-SHA224'])('sign/verify with %s, deterministic', (algo) => {
    const data = Buffer.from('the exact bytes of a load');
    const sig = rsaSign(pair.privatePem, data, algo);
    expect(rsaSign(pair.privatePem, data, algo)).toEqual(sig);
    expect(rsaVerify(pair.publicPem, data, sig, algo)).toBe(true);
    expect(rsaVerify(pair.publicPem, Buffer.from('other bytes'), sig, algo)).toBe(false);
    expect(rsaVerify(other.publicPem, data, sig, algo)).toBe(false);
  });

  it('does not verify across hash algorithms', () => {
    const data = Buffer.from('x');
    const sig = rsaSign(pair.privatePem, data, 'PKCS1v15-SHA1');
    expect(rsaVerify(pair.publicPem, data, sig, 'PKCS1v15-SHA224')).toBe(false);
  });

  it('returns false for malformed signatures', () => {
    expect(rsaVerify(pair.publicPem, Buffer.from('x'), Buffer.alloc(0))).toBe(false);
    expect(rsaVerify(pair.publicPem, Buffer.from('x'), Buffer.alloc(500, 0xff))).toBe(false);
  });

  it('rejects unknown algorithms', () => {
    expect(codeOf(() => rsaSign(pair.privatePem, Buffer.from('x'), 'PSS-SHA1' as SigAlgo))).toBe(
      'SALT_ERR_CRYPT_ALGO',
    );
    expect(codeOf(() => rsaVerify(pair.publicPem, Buffer.from('x'), Buffer.alloc(1), 'x' as SigAlgo))).toBe(
      'SALT_ERR_CRYPT_ALGO',
    );
  });
});

describe('key handles', () => {
  it('accepts strings, Buffers and KeyObjects and caches parsed PEM', () => {
    const a = privateKeyOf(pair.privatePem);
    expect(privateKeyOf(pair.privatePem)).toBe(a);
    expect(privateKeyOf(a)).toBe(a);
    const sig = rsaSign(Buffer.from(pair.privatePem), Buffer.from('m'));
    expect(rsaVerify(createPublicKey(pair.publicPem), Buffer.from('m'), sig)).toBe(true);
    expect(publicKeyOf(pair.publicPem)).toBe(publicKeyOf(pair.publicPem));
  });

  it('derives the public half from a private key', () => {
    const sig = rsaSign(pair.privatePem, Buffer.from('m'));
    expect(rsaVerify(pair.privatePem, Buffer.from('m'), sig)).toBe(true);
    expect(rsaVerify(privateKeyOf(pair.privatePem), Buffer.from('m'), sig)).toBe(true);
  });

  it('throws SALT_ERR_CRYPT_KEY for malformed or non-RSA keys', () => {
    expect(
      codeOf(() => privateKeyOf('-----BEGIN RSA PRIVATE KEY-----\nnope\n-----END RSA PRIVATE KEY-----')),
    ).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => publicKeyOf('not a key'))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => privateKeyOf(pair.publicPem))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => privateKeyOf(createPublicKey(pair.publicPem)))).toBe('SALT_ERR_CRYPT_KEY');
    const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    expect(codeOf(() => publicKeyOf(ec.publicKey))).toBe('SALT_ERR_CRYPT_KEY');
    expect(codeOf(() => rsaSign(ec.privateKey, Buffer.from('x')))).toBe('SALT_ERR_CRYPT_KEY');
  });
});

describe('algorithm guards', () => {
  it('know Salt names only', () => {
    expect(isEncAlgo('OAEP-SHA1')).toBe(true);
    expect(isEncAlgo('OAEP-SHA224')).toBe(true);
    expect(isEncAlgo('OAEP-SHA256')).toBe(false);
    expect(isEncAlgo('toString')).toBe(false);
    expect(isSigAlgo('PKCS1v15-SHA1')).toBe(true);
    expect(isSigAlgo('PKCS1v15-SHA224')).toBe(true);
    expect(isSigAlgo(1)).toBe(false);
  });
});
