/**
 * Salt's RSA operations (`salt.crypt.PrivateKey` / `PublicKey` of 3006): OAEP encryption with
 * MGF1 over the same hash, PKCS#1 v1.5 signatures, and ANSI X9.31 (re-exported from ./x931.ts).
 * Algorithm names are Salt's `enc_algo` / `sig_algo` strings; anything else raises
 * `SALT_ERR_CRYPT_ALGO`. Keys are PEM text, PEM bytes or `KeyObject`s (see ./rsa-key.ts).
 */
import {
  constants,
  generateKeyPair,
  generateKeyPairSync,
  privateDecrypt,
  publicEncrypt,
  sign,
  verify,
} from 'node:crypto';
import { SALT_ERR_CRYPT_ALGO, SALT_ERR_CRYPT_DECRYPT, SALT_ERR_CRYPT_KEY } from '../errors.js';
import { privateKeyOf, publicKeyOf, type RsaKeyInput } from './rsa-key.js';

export { clearRsaKeyCache, modulusOf, privateKeyOf, publicKeyOf, type RsaKeyInput } from './rsa-key.js';
export { x931Recover, x931Sign } from './x931.js';

/** Salt's encryption algorithms (`encryption_algorithm`, request field `enc_algo`). */
export type EncAlgo = 'OAEP-SHA1' | 'OAEP-SHA224';
/** Salt's signing algorithms (`signing_algorithm`, field `sig_algo`). */
export type SigAlgo = 'PKCS1v15-SHA1' | 'PKCS1v15-SHA224';

/** Salt's defaults for both. */
export const DEFAULT_ENC_ALGO: EncAlgo = 'OAEP-SHA1';
export const DEFAULT_SIG_ALGO: SigAlgo = 'PKCS1v15-SHA1';

const ENC_HASH: Readonly<Record<EncAlgo, string>> = { 'OAEP-SHA1': 'sha1', 'OAEP-SHA224': 'sha224' };
const SIG_HASH: Readonly<Record<SigAlgo, string>> = { 'PKCS1v15-SHA1': 'sha1', 'PKCS1v15-SHA224': 'sha224' };

/** True for a value Salt accepts as `enc_algo`. */
export function isEncAlgo(value: unknown): value is EncAlgo {
  return typeof value === 'string' && Object.hasOwn(ENC_HASH, value);
}

/** True for a value Salt accepts as `sig_algo`. */
export function isSigAlgo(value: unknown): value is SigAlgo {
  return typeof value === 'string' && Object.hasOwn(SIG_HASH, value);
}

function encHash(algo: string): string {
  if (!isEncAlgo(algo)) throw new SALT_ERR_CRYPT_ALGO(String(algo));
  return ENC_HASH[algo];
}

function sigHash(algo: string): string {
  if (!isSigAlgo(algo)) throw new SALT_ERR_CRYPT_ALGO(String(algo));
  return SIG_HASH[algo];
}

/** A freshly generated key pair in Salt's on-disk formats. */
export interface RsaKeyPair {
  /** Traditional OpenSSL form, `-----BEGIN RSA PRIVATE KEY-----` (PKCS#1), ending in `\n`. */
  privatePem: string;
  /** SubjectPublicKeyInfo, `-----BEGIN PUBLIC KEY-----`, ending in `\n`. */
  publicPem: string;
}

const PUBLIC_ENCODING = { type: 'spki', format: 'pem' } as const;
const PRIVATE_ENCODING = { type: 'pkcs1', format: 'pem' } as const;

function checkBits(bits: number): void {
  if (!Number.isInteger(bits) || bits < 512 || bits > 16384) {
    throw new SALT_ERR_CRYPT_KEY(`RSA key size must be an integer between 512 and 16384, got ${bits}`);
  }
}

/** Generates an RSA key pair like `salt.crypt.gen_keys` (e = 65537). Blocks for ~100 ms at 2048 bits. */
export function generateRsaKeyPair(bits = 2048): RsaKeyPair {
  checkBits(bits);
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: bits,
    publicExponent: 65537,
    publicKeyEncoding: PUBLIC_ENCODING,
    privateKeyEncoding: PRIVATE_ENCODING,
  });
  return { privatePem: privateKey, publicPem: publicKey };
}

/** {@link generateRsaKeyPair} on libuv's thread pool. */
export function generateRsaKeyPairAsync(bits = 2048): Promise<RsaKeyPair> {
  checkBits(bits);
  return new Promise((resolve, reject) => {
    generateKeyPair(
      'rsa',
      {
        modulusLength: bits,
        publicExponent: 65537,
        publicKeyEncoding: PUBLIC_ENCODING,
        privateKeyEncoding: PRIVATE_ENCODING,
      },
      (err, publicKey, privateKey) => {
        if (err) reject(new SALT_ERR_CRYPT_KEY('RSA key generation failed', { cause: err }));
        else resolve({ privatePem: privateKey, publicPem: publicKey });
      },
    );
  });
}

/** RSA-OAEP encryption (MGF1 with the same hash, empty label), as `PublicKey.encrypt`. */
export function oaepEncrypt(pub: RsaKeyInput, data: Buffer, algo: EncAlgo = DEFAULT_ENC_ALGO): Buffer {
  const oaepHash = encHash(algo);
  const key = publicKeyOf(pub);
  try {
    return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, data);
  } catch (cause) {
    throw new SALT_ERR_CRYPT_KEY(`cannot OAEP-encrypt ${data.length} bytes with this key`, { cause });
  }
}

/** RSA-OAEP decryption, as `PrivateKey.decrypt`. Throws `SALT_ERR_CRYPT_DECRYPT` on any failure. */
export function oaepDecrypt(priv: RsaKeyInput, data: Buffer, algo: EncAlgo = DEFAULT_ENC_ALGO): Buffer {
  const oaepHash = encHash(algo);
  const key = privateKeyOf(priv);
  try {
    return privateDecrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash }, data);
  } catch (cause) {
    throw new SALT_ERR_CRYPT_DECRYPT(`${algo} ciphertext`, { cause });
  }
}

/** PKCS#1 v1.5 signature over `data` (hashed with the algorithm's digest), as `PrivateKey.sign`. */
export function rsaSign(priv: RsaKeyInput, data: Buffer, algo: SigAlgo = DEFAULT_SIG_ALGO): Buffer {
  const hash = sigHash(algo);
  const key = privateKeyOf(priv);
  return sign(hash, data, { key, padding: constants.RSA_PKCS1_PADDING });
}

/** Verifies a PKCS#1 v1.5 signature, as `PublicKey.verify`: false for any mismatch or malformed signature. */
export function rsaVerify(
  pub: RsaKeyInput,
  data: Buffer,
  sig: Buffer,
  algo: SigAlgo = DEFAULT_SIG_ALGO,
): boolean {
  const hash = sigHash(algo);
  const key = publicKeyOf(pub);
  try {
    return verify(hash, data, { key, padding: constants.RSA_PKCS1_PADDING }, sig);
  } catch {
    return false;
  }
}
