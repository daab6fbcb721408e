/**
 * Signing and verifying X.509 structures with Node's crypto: the AlgorithmIdentifier for a key
 * and digest, the signature over the to-be-signed bytes, and checking one against a public key.
 */
import { type KeyObject, sign, verify } from 'node:crypto';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { derBits, derNull, derOid, seq } from './_x509-der.js';
import type { Signed } from './_x509-parse.js';

/** Signature algorithm OIDs by key type and digest, with the names Salt's reads print. */
const SIG_ALGS: readonly (readonly [string, string, string, string])[] = [
  ['rsa', 'sha1', '1.2.840.113549.1.1.5', 'sha1WithRSAEncryption'],
  ['rsa', 'sha224', '1.2.840.113549.1.1.14', 'sha224WithRSAEncryption'],
  ['rsa', 'sha256', '1.2.840.113549.1.1.11', 'sha256WithRSAEncryption'],
  ['rsa', 'sha384', '1.2.840.113549.1.1.12', 'sha384WithRSAEncryption'],
  ['rsa', 'sha512', '1.2.840.113549.1.1.13', 'sha512WithRSAEncryption'],
  ['rsa', 'sha3-224', '2.16.840.1.101.3.4.3.13', ''],
  ['rsa', 'sha3-256', '2.16.840.1.101.3.4.3.14', ''],
  ['rsa', 'sha3-384', '2.16.840.1.101.3.4.3.15', ''],
  ['rsa', 'sha3-512', '2.16.840.1.101.3.4.3.16', ''],
  ['ec', 'sha1', '1.2.840.10045.4.1', 'ecdsa-with-SHA1'],
  ['ec', 'sha224', '1.2.840.10045.4.3.1', 'ecdsa-with-SHA224'],
  ['ec', 'sha256', '1.2.840.10045.4.3.2', 'ecdsa-with-SHA256'],
  ['ec', 'sha384', '1.2.840.10045.4.3.3', 'ecdsa-with-SHA384'],
  ['ec', 'sha512', '1.2.840.10045.4.3.4', 'ecdsa-with-SHA512'],
  ['ec', 'sha3-224', '2.16.840.1.101.3.4.3.9', ''],
  ['ec', 'sha3-256', '2.16.840.1.101.3.4.3.10', ''],
  ['ec', 'sha3-384', '2.16.840.1.101.3.4.3.11', ''],
  ['ec', 'sha3-512', '2.16.840.1.101.3.4.3.12', ''],
  ['ed25519', '', '1.3.101.112', 'ed25519'],
  ['ed448', '', '1.3.101.113', 'ed448'],
];

/** The digests Salt accepts. */
export const DIGESTS = [
  'sha1',
  'sha224',
  'sha256',
  'sha384',
  'sha512',
  'sha512_224',
  'sha512_256',
  'sha3_224',
  'sha3_256',
  'sha3_384',
  'sha3_512',
];

/** Refuses a digest Salt refuses, with Salt's message. */
export function checkDigest(digest: string): void {
  if (!DIGESTS.includes(digest.toLowerCase())) {
    throw new SALT_ERR_EXEC_COMMAND(`Invalid value '${digest}' for digest. Valid: ${DIGESTS.join(', ')}`);
  }
}

/** The name Salt prints for a signature algorithm (the dotted OID when it has none). */
export const sigAlgName = (oid: string): string => SIG_ALGS.find((a) => a[2] === oid)?.[3] || oid;

/** The key type as Salt names it. */
export function keyType(key: KeyObject): string {
  const t = key.asymmetricKeyType ?? '';
  if (t === 'rsa' || t === 'rsa-pss') return 'rsa';
  if (['ec', 'ed25519', 'ed448'].includes(t)) return t;
  throw new SALT_ERR_INVOCATION('Invalid public key type, can only process rsa, ec, ed25519, ed448');
}

/** A signer for `key` with `digest`: its AlgorithmIdentifier and the signing function. */
export function signer(key: KeyObject, digest: string): { alg: Buffer; sign: (tbs: Buffer) => Buffer } {
  const type = keyType(key);
  const edwards = type === 'ed25519' || type === 'ed448';
  const hash = edwards ? '' : digest.toLowerCase().replace('_', '-');
  const row = SIG_ALGS.find((a) => a[0] === type && a[1] === hash);
  if (!row) throw new SALT_ERR_EXEC_COMMAND(`tsalt cannot sign with ${digest} and a ${type} key`);
  const alg = type === 'rsa' ? seq(derOid(row[2]), derNull()) : seq(derOid(row[2]));
  return { alg, sign: (tbs) => sign(edwards ? null : hash, tbs, key) };
}

/** The signed structure: to-be-signed bytes, algorithm and signature. */
export function signStructure(tbs: Buffer, key: KeyObject, digest: string): Buffer {
  const s = signer(key, digest);
  return seq(tbs, s.alg, derBits(s.sign(tbs)));
}

/** Whether `pub` made the signature on a certificate, CSR or CRL. */
export function verifySigned(s: Signed, pub: KeyObject): boolean {
  const type = keyType(pub);
  const row = SIG_ALGS.find((a) => a[2] === s.sigAlgOid);
  if (!row) return false;
  if (row[0] !== type) return false;
  try {
    return verify(row[1] || null, s.tbs, pub, s.signature);
  } catch {
    return false;
  }
}

/** The digest a signature algorithm hashes with (`sha256`, `sha3-256`), '' for Edwards curves. */
export const sigDigest = (oid: string): string | undefined => SIG_ALGS.find((a) => a[2] === oid)?.[1];
