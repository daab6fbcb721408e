/**
 * Conformance of kernel/crypt with Salt 3006.18's golden vectors: Crypticle (crypticle.json),
 * real publishes (publish.json), real v3 aes requests and replies (return.json) and key
 * fingerprints (keys/fingerprints.json).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Crypticle } from '../../kernel/crypt/crypticle.js';
import { pemFinger, pemFingerBytes, pemFingerOfString } from '../../kernel/crypt/fingerprint.js';
import { oaepDecrypt, rsaSign, rsaVerify, x931Recover, x931Sign } from '../../kernel/crypt/rsa.js';
import { packNetwork, unpackNetwork } from '../../kernel/serial/index.js';
import { blob, expectTaggedEqual, fromTagged, loadVectors, SALT_VECTORS_DIR } from './vectors.js';

interface Blob {
  b64: string;
  length: number;
  decoded?: unknown;
  iv_hex?: string;
}

const load = <T>(name: string): T => loadVectors(name) as T;
const keyFile = (name: string): string => readFileSync(join(SALT_VECTORS_DIR, 'keys', name), 'utf8');

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code ?? 'thrown';
  }
  return undefined;
}

const masterPem = keyFile('master.pem');
const masterPub = keyFile('master.pub');
const minionPem = keyFile('minion.pem');
const minionPub = keyFile('minion.pub');

// ── crypticle.json ──────────────────────────────────────────────────────────────────────
/** crypticle.json keeps the parts of an output beside it, the live files inside the blob. */
interface Parts {
  iv_hex: string;
  ciphertext_hex: string;
  hmac_sha256_hex: string;
}

interface CrypticleVectors {
  key_string: string;
  key_material: { aes_key_hex: string; hmac_key_hex: string };
  encrypt_vectors: (Parts & { name: string; plaintext: Blob; padded_plaintext_hex: string; output: Blob })[];
  dumps_vectors: (Parts & {
    name: string;
    obj: unknown;
    nonce: string | null;
    output: Blob;
    plaintext: Blob;
    loads_result: unknown;
  })[];
  tamper_vectors: {
    original: Blob;
    original_loads: unknown;
    tampered: { name: string; data: Blob; expected_error: string }[];
  };
  other_vectors: {
    nonce_mismatch: { data: Blob; loads_with_nonce: string };
    missing_pickle_prefix: { data: Blob; loads_result: unknown };
  };
  serial_vector: Parts & {
    obj: unknown;
    output: Blob;
    plaintext: Blob;
    loads_on_fresh_instance_serial_0: unknown;
    loads_again_on_same_instance: unknown;
    loads_on_instance_with_serial_7: unknown;
    loads_on_instance_with_serial_6: unknown;
  };
}

const cv = load<CrypticleVectors>('crypticle.json');
const ivOf = (b: { iv_hex?: string }): Buffer => Buffer.from(b.iv_hex ?? '', 'hex');

describe('crypticle.json', () => {
  it('key string splits into the AES-192 and HMAC-SHA256 keys', () => {
    const raw = Buffer.from(cv.key_string, 'base64');
    expect(raw.subarray(0, 24).toString('hex')).toBe(cv.key_material.aes_key_hex);
    expect(raw.subarray(24).toString('hex')).toBe(cv.key_material.hmac_key_hex);
    expect(new Crypticle(cv.key_string).keyString).toBe(cv.key_string);
  });

  it.each(cv.encrypt_vectors)('$name: encrypt with the recorded IV gives the recorded output', (v) => {
    const c = new Crypticle(cv.key_string);
    const out = c.encrypt(blob(v.plaintext), ivOf(v));
    expect(out.toString('base64')).toBe(v.output.b64);
    expect(out.toString('hex')).toBe(`${v.iv_hex}${v.ciphertext_hex}${v.hmac_sha256_hex}`);
    expect(c.decrypt(blob(v.output))).toEqual(blob(v.plaintext));
  });

  it.each(cv.dumps_vectors)('$name: dumps with the recorded IV, decrypt, loads', (v) => {
    const c = new Crypticle(cv.key_string);
    const nonce = v.nonce ?? undefined;
    expect(c.dumps(fromTagged(v.obj), nonce, ivOf(v)).toString('base64')).toBe(v.output.b64);
    expect(c.decrypt(blob(v.output))).toEqual(blob(v.plaintext));
    expectTaggedEqual(c.loads(blob(v.output), nonce), v.loads_result);
  });

  it('tamper vectors: original loads, every modification fails authentication', () => {
    const c = new Crypticle(cv.key_string);
    const tv = cv.tamper_vectors;
    expectTaggedEqual(c.loads(blob(tv.original)), tv.original_loads);
    expect(tv.tampered.length).toBeGreaterThanOrEqual(5);
    for (const t of tv.tampered) {
      expect(t.expected_error).toMatch(/^AuthenticationError/);
      expect([t.name, codeOf(() => c.loads(blob(t.data)))]).toEqual([t.name, 'SALT_ERR_CRYPT_AUTH_FAILED']);
      expect([t.name, codeOf(() => c.decrypt(blob(t.data)))]).toEqual([t.name, 'SALT_ERR_CRYPT_AUTH_FAILED']);
    }
  });

  it('nonce mismatch raises SALT_ERR_CRYPT_NONCE; no nonce fails to deserialize; the right nonce loads', () => {
    const c = new Crypticle(cv.key_string);
    const { data, loads_with_nonce } = cv.other_vectors.nonce_mismatch;
    expect(codeOf(() => c.loads(blob(data), loads_with_nonce))).toBe('SALT_ERR_CRYPT_NONCE');
    expect(codeOf(() => c.loads(blob(data)))).toBeDefined();
    expect(c.loads(blob(data), '1'.repeat(32))).toEqual({ ok: 1 });
  });

  it('a plaintext without pickle:: loads as {}', () => {
    const c = new Crypticle(cv.key_string);
    const v = cv.other_vectors.missing_pickle_prefix;
    expectTaggedEqual(c.loads(blob(v.data)), v.loads_result);
    expect(c.loads(blob(v.data))).toEqual({});
  });

  it('serial vector: replay protection per instance', () => {
    const sv = cv.serial_vector;
    const data = blob(sv.output);
    const fresh = new Crypticle(cv.key_string);
    expect(fresh.dumps(fromTagged(sv.obj), undefined, ivOf(sv)).toString('base64')).toBe(sv.output.b64);
    expect(fresh.decrypt(data)).toEqual(blob(sv.plaintext));
    expect(fresh.serial).toBe(0);
    expectTaggedEqual(fresh.loads(data), sv.loads_on_fresh_instance_serial_0);
    expect(fresh.serial).toBe(7);
    expectTaggedEqual(fresh.loads(data), sv.loads_again_on_same_instance);
    expectTaggedEqual(new Crypticle(cv.key_string, 7).loads(data), sv.loads_on_instance_with_serial_7);
    expectTaggedEqual(new Crypticle(cv.key_string, 6).loads(data), sv.loads_on_instance_with_serial_6);
  });
});

// ── publish.json ────────────────────────────────────────────────────────────────────────
interface PublishVectors {
  master_aes_key_string: string;
  publishes: {
    fun: string;
    frame: Blob;
    encrypted_load: Blob;
    plaintext: Blob;
    serial: number;
    crypticle_loads_result: unknown;
  }[];
}

const pv = load<PublishVectors>('publish.json');

describe('publish.json', () => {
  it.each(pv.publishes)('$fun publish: signature, decryption, loads, re-encoding', (p) => {
    const frame = unpackNetwork(blob(p.frame)) as {
      enc: string;
      load: Buffer;
      sig_algo: string;
      sig: Buffer;
    };
    expect(frame.enc).toBe('aes');
    expect(frame.sig_algo).toBe('PKCS1v15-SHA1');
    expect(frame.load).toEqual(blob(p.encrypted_load));
    expect(rsaVerify(masterPub, frame.load, frame.sig, 'PKCS1v15-SHA1')).toBe(true);
    expect(rsaSign(masterPem, frame.load, 'PKCS1v15-SHA1')).toEqual(frame.sig);
    expect(packNetwork({ enc: 'aes', load: frame.load, sig_algo: 'PKCS1v15-SHA1', sig: frame.sig })).toEqual(
      blob(p.frame),
    );

    const c = new Crypticle(pv.master_aes_key_string);
    expect(c.decrypt(frame.load)).toEqual(blob(p.plaintext));
    expectTaggedEqual(c.loads(frame.load), p.crypticle_loads_result);
    expect(c.serial).toBe(p.serial);
    expect(c.loads(frame.load)).toEqual({});
    const again = c.dumps(fromTagged(p.plaintext.decoded), undefined, ivOf(p.encrypted_load));
    expect(again).toEqual(frame.load);
  });
});

// ── return.json ─────────────────────────────────────────────────────────────────────────
interface AesRequest {
  description: string;
  cmd: string;
  request: Blob;
  request_encrypted_load: Blob;
  request_plaintext: Blob;
  decrypted_load: unknown;
  reply: Blob;
}
interface ReturnVectors {
  session_key_string: string;
  returns: (AesRequest & { reply_plaintext: Blob; reply_decoded: unknown })[];
  minion_events: (AesRequest & { reply_plaintext: Blob; reply_decoded: unknown })[];
  pillar: AesRequest & {
    reply_private: {
      dictkey: string;
      per_reply_key_string: string;
      encrypted_part: Blob;
      signed_map: unknown;
      data: Blob;
    };
  };
}

const rv = load<ReturnVectors>('return.json');
const nonceOf = (loadValue: unknown): string => (loadValue as { nonce: string }).nonce;

function checkRequest(r: AesRequest): Record<string, unknown> {
  const session = new Crypticle(rv.session_key_string);
  const frame = unpackNetwork(blob(r.request)) as Record<string, unknown>;
  expect(frame).toMatchObject({
    enc: 'aes',
    version: 3,
    id: 'vm1',
    enc_algo: 'OAEP-SHA1',
    sig_algo: 'PKCS1v15-SHA1',
  });
  expect(frame.load).toEqual(blob(r.request_encrypted_load));
  expect(session.decrypt(blob(r.request_encrypted_load))).toEqual(blob(r.request_plaintext));
  const decoded = session.loads(blob(r.request_encrypted_load)) as Record<string, unknown>;
  expectTaggedEqual(decoded, r.decrypted_load);
  // re-encrypting the decoded load with the recorded IV reproduces the request bytes
  const redone = session.dumps(fromTagged(r.decrypted_load), undefined, ivOf(r.request_encrypted_load));
  expect(redone).toEqual(blob(r.request_encrypted_load));
  // tok: X9.31 of b"salt" with minion.pem
  const tok = decoded.tok as Buffer;
  expect(x931Recover(minionPub, tok).toString()).toBe('salt');
  expect(x931Sign(minionPem, Buffer.from('salt'))).toEqual(tok);
  return decoded;
}

describe('return.json', () => {
  it.each([...rv.returns, ...rv.minion_events])('$description', (r) => {
    const decoded = checkRequest(r);
    expect(decoded.cmd).toBe(r.cmd);
    const session = new Crypticle(rv.session_key_string);
    const reply = unpackNetwork(blob(r.reply));
    expect(Buffer.isBuffer(reply)).toBe(true);
    const replyBytes = reply as Buffer;
    expect(session.decrypt(replyBytes)).toEqual(blob(r.reply_plaintext));
    const nonce = nonceOf(decoded);
    expectTaggedEqual(session.loads(replyBytes, nonce), r.reply_decoded);
    expect(codeOf(() => session.loads(replyBytes, 'f'.repeat(32)))).toBe('SALT_ERR_CRYPT_NONCE');
    expect(session.dumps(fromTagged(r.reply_decoded), nonce, replyBytes.subarray(0, 16))).toEqual(replyBytes);
    expect(packNetwork(replyBytes)).toEqual(blob(r.reply));
  });

  it('_pillar: send_private reply (OAEP key, signed and encrypted map)', () => {
    const p = rv.pillar;
    const decoded = checkRequest(p);
    const reply = unpackNetwork(blob(p.reply)) as { key: Buffer; pillar: Buffer };
    const pr = p.reply_private;
    expect(pr.dictkey).toBe('pillar');
    const keyString = oaepDecrypt(minionPem, reply.key, 'OAEP-SHA1').toString();
    expect(keyString).toBe(pr.per_reply_key_string);
    expect(reply.pillar).toEqual(blob(pr.encrypted_part));
    const signed = new Crypticle(keyString).loads(reply.pillar) as { data: Buffer; sig: Buffer };
    expectTaggedEqual(signed, pr.signed_map);
    expect(signed.data).toEqual(blob(pr.data));
    expect(rsaVerify(masterPub, signed.data, signed.sig, 'PKCS1v15-SHA1')).toBe(true);
    expect(rsaSign(masterPem, signed.data, 'PKCS1v15-SHA1')).toEqual(signed.sig);
    const inner = unpackNetwork(signed.data) as { key: Buffer; nonce: string };
    expect(inner.key).toEqual(reply.key);
    expect(inner.nonce).toBe(nonceOf(decoded));
  });
});

// ── keys/fingerprints.json ──────────────────────────────────────────────────────────────
interface FingerVectors {
  files: Record<string, { pem_finger_sha256: string; pem_finger_md5: string; hashed_bytes: Blob }>;
  pem_finger_of_string: { result: string };
  salt_key_F_output: string;
  salt_call_key_finger: { stdout: string };
}

const fv = load<FingerVectors>('keys/fingerprints.json');

describe('keys/fingerprints.json', () => {
  it.each(Object.entries(fv.files))('%s: pem_finger sha256 and md5', (name, f) => {
    const text = keyFile(name);
    expect(pemFingerBytes(text)).toEqual(blob(f.hashed_bytes));
    expect(pemFinger(text)).toBe(f.pem_finger_sha256);
    expect(pemFinger(text, 'sha256')).toBe(f.pem_finger_sha256);
    expect(pemFinger(text, 'md5')).toBe(f.pem_finger_md5);
  });

  it('pem_finger(key=<string>) hashes the whole text', () => {
    expect(pemFingerOfString(masterPub)).toBe(fv.pem_finger_of_string.result);
  });

  it('matches salt-key -F and key.finger output', () => {
    expect(fv.salt_key_F_output).toContain(`master.pem:  ${pemFinger(masterPem)}`);
    expect(fv.salt_key_F_output).toContain(`master.pub:  ${pemFinger(masterPub)}`);
    expect(fv.salt_key_F_output).toContain(`vm1:  ${pemFinger(minionPub)}`);
    expect(JSON.parse(fv.salt_call_key_finger.stdout)).toEqual({ local: pemFinger(minionPub) });
  });
});
