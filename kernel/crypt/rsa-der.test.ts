import { createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fastPrivateKey, fastPublicKey } from './rsa-der.js';

const KEYS = join(import.meta.dirname, '../../../shared/salt-vectors/keys');
const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });

describe('fast RSA key loading', () => {
  it("loads Salt 3006's own key files exactly as OpenSSL's PEM parser does", () => {
    for (const name of ['master', 'minion']) {
      const pem = readFileSync(join(KEYS, `${name}.pem`), 'utf8');
      const pub = readFileSync(join(KEYS, `${name}.pub`), 'utf8');
      expect(fastPrivateKey(pem)?.export({ format: 'jwk' })).toEqual(
        createPrivateKey(pem).export({ format: 'jwk' }),
      );
      expect(fastPublicKey(pub)?.export({ format: 'jwk' })).toEqual(
        createPublicKey(pub).export({ format: 'jwk' }),
      );
    }
  });

  it('reads SPKI and PKCS#1 public keys, PKCS#1 and PKCS#8 private keys', () => {
    const jwkPub = pair.publicKey.export({ format: 'jwk' });
    const jwkPriv = pair.privateKey.export({ format: 'jwk' });
    for (const type of ['spki', 'pkcs1'] as const) {
      const pem = pair.publicKey.export({ type, format: 'pem' }).toString();
      expect(fastPublicKey(pem)?.export({ format: 'jwk' })).toEqual(jwkPub);
    }
    for (const type of ['pkcs1', 'pkcs8'] as const) {
      const pem = pair.privateKey.export({ type, format: 'pem' }).toString();
      expect(fastPrivateKey(pem)?.export({ format: 'jwk' })).toEqual(jwkPriv);
    }
  });

  it('leaves what it does not know to OpenSSL: encrypted, other algorithms, damaged, not a key', () => {
    const encrypted = pair.privateKey
      .export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'x' })
      .toString();
    expect(fastPrivateKey(encrypted)).toBeUndefined();
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(fastPublicKey(ec.publicKey.export({ type: 'spki', format: 'pem' }).toString())).toBeUndefined();
    expect(fastPrivateKey(ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString())).toBeUndefined();
    const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const lines = pem.split('\n');
    const cut = [lines[0], lines[1], lines[2], lines.at(-2), ''].join('\n');
    expect(fastPublicKey(cut)).toBeUndefined();
    expect(fastPublicKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')).toBeUndefined();
    expect(fastPublicKey('not a key')).toBeUndefined();
    expect(fastPrivateKey('')).toBeUndefined();
  });
});

describe('fast RSA key loading refuses what OpenSSL refuses', () => {
  it('leaves damaged base64 and multi-block files to OpenSSL', () => {
    const pem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const lines = pem.split('\n');
    const junk = [lines[0], `${lines[1]?.slice(0, 10)}!!!*${lines[1]?.slice(10)}`, ...lines.slice(2)].join(
      '\n',
    );
    expect(fastPublicKey(junk)).toBeUndefined();
    const url = pem.replace(/\+/g, '-').replace(/\//g, '_');
    if (url !== pem) expect(fastPublicKey(url)).toBeUndefined();
    const priv = pair.privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const pkcs8 = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(fastPrivateKey(`${priv}${pkcs8}`)).toBeUndefined();
  });
});
