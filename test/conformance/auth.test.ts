/**
 * Conformance of kernel/crypt's RSA layer with the real `_auth` exchanges of Salt 3006.18
 * (auth.json): PKCS#1 v1.5 reply signatures, OAEP fields, the X9.31 AES-key signature, and the
 * X9.31 reference vectors.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { cleanKey } from '../../kernel/crypt/keys.js';
import {
  modulusOf,
  oaepDecrypt,
  oaepEncrypt,
  privateKeyOf,
  rsaSign,
  rsaVerify,
  x931Recover,
  x931Sign,
} from '../../kernel/crypt/rsa.js';
import { x931Pad } from '../../kernel/crypt/x931.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { blob, loadVectors, SALT_VECTORS_DIR } from './vectors.js';

interface Blob {
  b64: string;
  length: number;
}

interface Variant {
  description: string;
  request: Blob;
  request_token_plaintext: string | null;
  request_pub_equals_minion_pub_file: boolean;
  reply: Blob;
  reply_signed_load: Blob;
  reply_sig_check: { algorithm: string; verified: boolean; deterministic_resign_equal: boolean };
  nonce_echoed: boolean;
  aes_key_string?: string;
  session_key_string?: string;
  aes_sig_check?: { message: string };
  reply_token_plaintext?: string | null;
  publish_port?: number;
  pub_key_equals_master_pub_file?: boolean;
}

interface AuthVectors {
  minion_id: string;
  session_key_file: { content: string; equals_decrypted_session: boolean };
  variants: Record<string, Variant>;
  x931_reference: {
    key: string;
    used_for: string;
    message: Blob;
    padded_block_hex: string;
    s_is_smaller_than_n_minus_s: boolean;
    signature: Blob;
  }[];
}

const load = <T>(name: string): T => loadVectors(name) as T;
const vectorFile = (rel: string): string => readFileSync(join(SALT_VECTORS_DIR, rel), 'utf8');

const av = load<AuthVectors>('auth.json');
const masterPem = vectorFile('keys/master.pem');
const masterPub = vectorFile('keys/master.pub');
const minionPem = vectorFile('keys/minion.pem');
const minionPub = vectorFile('keys/minion.pub');

type Map_ = Record<string, unknown>;

describe('auth.json variants', () => {
  it('has the four captured exchanges', () => {
    expect(Object.keys(av.variants).sort()).toEqual(['first_contact', 'normal', 'pending', 'salt_call']);
  });

  it.each(Object.entries(av.variants))('%s: request (clear _auth load)', (_name, v) => {
    const req = unpackNetwork(blob(v.request)) as { enc: string; load: Map_; version: number };
    expect(req.enc).toBe('clear');
    expect(req.version).toBe(3);
    const l = req.load;
    expect(l.cmd).toBe('_auth');
    expect(l.id).toBe(av.minion_id);
    expect(l.enc_algo).toBe('OAEP-SHA1');
    expect(l.sig_algo).toBe('PKCS1v15-SHA1');
    expect(l.pub === cleanKey(minionPub)).toBe(v.request_pub_equals_minion_pub_file);
    if (v.request_token_plaintext === null) {
      expect(l.token).toBeUndefined();
    } else {
      const token = l.token as Buffer;
      expect(token.length).toBe(256);
      expect(oaepDecrypt(masterPem, token, 'OAEP-SHA1').toString()).toBe(v.request_token_plaintext);
      expect(() => oaepDecrypt(minionPem, token)).toThrow(
        expect.objectContaining({ code: 'SALT_ERR_CRYPT_DECRYPT' }),
      );
    }
    expect(packNetwork(req)).toEqual(blob(v.request));
  });

  it.each(Object.entries(av.variants))('%s: reply signature (PKCS1v15-SHA1 by master.pem)', (_name, v) => {
    const reply = unpackNetwork(blob(v.reply)) as { enc: string; load: Buffer; sig: Buffer };
    expect(reply.enc).toBe('clear');
    expect(reply.load).toEqual(blob(v.reply_signed_load));
    expect(v.reply_sig_check.algorithm).toBe('PKCS1v15-SHA1');
    expect(rsaVerify(masterPub, reply.load, reply.sig, 'PKCS1v15-SHA1')).toBe(v.reply_sig_check.verified);
    expect(rsaSign(masterPem, reply.load, 'PKCS1v15-SHA1').equals(reply.sig)).toBe(
      v.reply_sig_check.deterministic_resign_equal,
    );
    expect(rsaVerify(minionPub, reply.load, reply.sig)).toBe(false);
    const tampered = Buffer.from(reply.load);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    expect(rsaVerify(masterPub, tampered, reply.sig)).toBe(false);
    expect(packNetwork({ enc: 'clear', load: reply.load, sig: reply.sig })).toEqual(blob(v.reply));
  });

  it.each(Object.entries(av.variants))('%s: signed inner load (OAEP fields, X9.31 aes sig)', (_name, v) => {
    const req = unpackNetwork(blob(v.request)) as { load: Map_ };
    const inner = unpackNetwork(blob(v.reply_signed_load)) as Map_;
    expect(inner.nonce === req.load.nonce).toBe(v.nonce_echoed);
    if (v.aes_key_string === undefined) {
      expect(inner).toEqual({ ret: true, nonce: req.load.nonce });
      return;
    }
    expect(inner.enc).toBe('pub');
    expect(inner.publish_port).toBe(v.publish_port);
    expect(inner.pub_key === cleanKey(masterPub)).toBe(v.pub_key_equals_master_pub_file);
    const aes = oaepDecrypt(minionPem, inner.aes as Buffer, 'OAEP-SHA1').toString();
    expect(aes).toBe(v.aes_key_string);
    expect(aes).toHaveLength(76);
    expect(() => new Crypticle(aes)).not.toThrow();
    const session = oaepDecrypt(minionPem, inner.session as Buffer, 'OAEP-SHA1').toString();
    expect(session).toBe(v.session_key_string);
    if (v.reply_token_plaintext) {
      expect(oaepDecrypt(minionPem, inner.token as Buffer, 'OAEP-SHA1').toString()).toBe(
        v.reply_token_plaintext,
      );
      expect(v.reply_token_plaintext).toBe(v.request_token_plaintext);
    } else {
      expect(inner.token).toBeUndefined();
    }
    // sig = X9.31(master.pem) of the hex SHA-256 of the AES key string
    const digest = createHash('sha256').update(aes).digest('hex');
    expect(digest).toBe(v.aes_sig_check?.message);
    const sig = inner.sig as Buffer;
    expect(x931Recover(masterPub, sig).toString()).toBe(digest);
    expect(x931Sign(masterPem, Buffer.from(digest))).toEqual(sig);
    // our OAEP output is readable with the same key (OAEP is randomized, so no byte equality)
    expect(oaepDecrypt(minionPem, oaepEncrypt(minionPub, Buffer.from(aes))).toString()).toBe(aes);
    expect(packNetwork(inner)).toEqual(blob(v.reply_signed_load));
  });

  it('the session key file equals the decrypted session key', () => {
    const accepted = Object.values(av.variants).filter((v) => v.session_key_string !== undefined);
    expect(accepted.length).toBe(3);
    for (const v of accepted) expect(v.session_key_string).toBe(av.session_key_file.content);
    expect(av.session_key_file.equals_decrypted_session).toBe(true);
  });
});

describe('auth.json x931_reference', () => {
  it.each(av.x931_reference)('$used_for', (r) => {
    const priv = vectorFile(r.key);
    const pub = vectorFile(r.key.replace(/\.pem$/, '.pub'));
    const message = blob(r.message);
    const signature = blob(r.signature);
    expect(x931Pad(message, 256).toString('hex')).toBe(r.padded_block_hex);
    expect(x931Sign(priv, message)).toEqual(signature);
    expect(x931Recover(pub, signature)).toEqual(message);
    expect(x931Recover(priv, signature)).toEqual(message);
    // which of s and n - s OpenSSL returned
    const { n } = modulusOf(privateKeyOf(priv));
    const sig = BigInt(`0x${signature.toString('hex')}`);
    const block = BigInt(`0x${r.padded_block_hex}`);
    const e = 65537n;
    let t = 1n;
    let base = sig;
    for (let k = e; k > 0n; k >>= 1n) {
      if (k & 1n) t = (t * base) % n;
      base = (base * base) % n;
    }
    expect(t === block).toBe(r.s_is_smaller_than_n_minus_s);
    expect(t === block || n - t === block).toBe(true);
  });
});
