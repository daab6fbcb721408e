/**
 * A fast path for loading RSA keys: OpenSSL 3's PEM/SPKI decoders cost ~0.35 ms per public key
 * and ~1 ms per private key, while a PKCS#1 public DER or a JWK loads in ~15 µs. A master signing
 * in 10,000 minions parses 10,000 public keys, and a swarm process thousands of private keys, so
 * this module reads the few DER shapes Salt's keys come in (SPKI and PKCS#1 public keys, PKCS#1
 * and unencrypted PKCS#8 private keys) and hands Node the cheap form. Anything else (encrypted
 * PEM, another algorithm, a malformed structure) returns `undefined`: the caller falls back to
 * OpenSSL's parser and its errors.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

interface Tlv {
  tag: number;
  /** Offset of the value. */
  start: number;
  /** Offset just past the value. */
  end: number;
}

/** One DER element at `off`, or undefined when it does not fit in `buf`. */
function readTlv(buf: Buffer, off: number): Tlv | undefined {
  if (off + 2 > buf.length) return undefined;
  const tag = buf[off] as number;
  let len = buf[off + 1] as number;
  let start = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || start + n > buf.length) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + (buf[start + i] as number);
    start += n;
  }
  const end = start + len;
  return end <= buf.length ? { tag, start, end } : undefined;
}

/** The elements of the SEQUENCE that fills `buf`, or undefined. */
function sequence(buf: Buffer): Tlv[] | undefined {
  const seq = readTlv(buf, 0);
  if (!seq || seq.tag !== 0x30 || seq.end !== buf.length) return undefined;
  const items: Tlv[] = [];
  for (let at = seq.start; at < seq.end; ) {
    const item = readTlv(buf, at);
    if (!item) return undefined;
    items.push(item);
    at = item.end;
  }
  return items;
}

// rsaEncryption, 1.2.840.113549.1.1.1
const RSA_OID = Buffer.from('2a864886f70d010101', 'hex');

function isRsaAlgorithm(buf: Buffer, alg: Tlv): boolean {
  const oid = readTlv(buf, alg.start);
  return !!oid && oid.tag === 0x06 && oid.end <= alg.end && buf.subarray(oid.start, oid.end).equals(RSA_OID);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The DER body of the only PEM block, with this label, or undefined. */
export function pemBody(pem: string, label: string): Buffer | undefined {
  const begin = `-----BEGIN ${label}-----`;
  const at = pem.indexOf(begin);
  if (at < 0) return undefined;
  const stop = pem.indexOf(`-----END ${label}-----`, at);
  if (stop < 0) return undefined;
  // one block only: with several, OpenSSL's choice is what counts
  if (pem.indexOf('-----BEGIN', at + 1) >= 0 || (at > 0 && pem.lastIndexOf('-----BEGIN', at - 1) >= 0))
    return undefined;
  // encrypted PEM carries headers (Proc-Type, DEK-Info): leave those to OpenSSL
  const body = pem.slice(at + begin.length, stop).replace(/\s+/g, '');
  // Buffer.from skips characters that are not base64 (and takes base64url): OpenSSL refuses them
  if (!BASE64.test(body)) return undefined;
  return Buffer.from(body, 'base64');
}

/** The PKCS#1 RSAPublicKey inside an SPKI structure, or undefined. */
function spkiToPkcs1(der: Buffer): Buffer | undefined {
  const parts = sequence(der);
  if (parts?.length !== 2) return undefined;
  const [alg, bits] = parts as [Tlv, Tlv];
  if (alg.tag !== 0x30 || bits.tag !== 0x03 || !isRsaAlgorithm(der, alg)) return undefined;
  if (der[bits.start] !== 0) return undefined;
  return der.subarray(bits.start + 1, bits.end);
}

const JWK_FIELDS = ['n', 'e', 'd', 'p', 'q', 'dp', 'dq', 'qi'] as const;

/** A PKCS#1 RSAPrivateKey as a JWK (two-prime keys only), or undefined. */
function pkcs1PrivateToJwk(der: Buffer): Record<string, string> | undefined {
  const parts = sequence(der);
  if (parts?.length !== 9) return undefined;
  if (parts.some((p) => p.tag !== 0x02)) return undefined;
  const version = parts[0] as Tlv;
  if (version.end - version.start !== 1 || der[version.start] !== 0) return undefined;
  const jwk: Record<string, string> = { kty: 'RSA' };
  JWK_FIELDS.forEach((name, i) => {
    const p = parts[i + 1] as Tlv;
    let start = p.start;
    while (start < p.end - 1 && der[start] === 0) start++;
    jwk[name] = der.subarray(start, p.end).toString('base64url');
  });
  return jwk;
}

/** The PKCS#1 RSAPrivateKey inside an unencrypted PKCS#8 structure, or undefined. */
function pkcs8ToPkcs1(der: Buffer): Buffer | undefined {
  const parts = sequence(der);
  if (!parts || parts.length < 3) return undefined;
  const [version, alg, key] = parts as [Tlv, Tlv, Tlv];
  if (version.tag !== 0x02 || alg.tag !== 0x30 || key.tag !== 0x04 || !isRsaAlgorithm(der, alg))
    return undefined;
  return der.subarray(key.start, key.end);
}

/** An RSA public key from PEM through the cheap DER path, or undefined to fall back. */
export function fastPublicKey(pem: string): KeyObject | undefined {
  try {
    const spki = pemBody(pem, 'PUBLIC KEY');
    const pkcs1 = spki ? spkiToPkcs1(spki) : pemBody(pem, 'RSA PUBLIC KEY');
    return pkcs1 ? createPublicKey({ key: pkcs1, format: 'der', type: 'pkcs1' }) : undefined;
  } catch {
    return undefined;
  }
}

/** An RSA private key from PEM through a JWK, or undefined to fall back. */
export function fastPrivateKey(pem: string): KeyObject | undefined {
  try {
    const pkcs8 = pemBody(pem, 'PRIVATE KEY');
    const pkcs1 = pkcs8 ? pkcs8ToPkcs1(pkcs8) : pemBody(pem, 'RSA PRIVATE KEY');
    const jwk = pkcs1 ? pkcs1PrivateToJwk(pkcs1) : undefined;
    return jwk ? createPrivateKey({ key: jwk, format: 'jwk' }) : undefined;
  } catch {
    return undefined;
  }
}
