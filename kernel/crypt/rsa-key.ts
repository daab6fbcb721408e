/**
 * RSA key handles: PEM text (string or Buffer) or a ready `KeyObject`, parsed once and cached.
 * Every RSA operation in kernel/crypt goes through {@link privateKeyOf} / {@link publicKeyOf}, so a
 * key that arrives as PEM thousands of times (a minion's public key, master.pem) is parsed once.
 * Parsing goes through ./rsa-der.ts first (~15 µs instead of OpenSSL 3's 0.35–1 ms), so a
 * bounded cache that churns at 10,000 minions costs little.
 */
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { SALT_ERR_CRYPT_KEY } from '../errors.js';
import { fastPrivateKey, fastPublicKey } from './rsa-der.js';

/** Anything that names an RSA key: PEM text, PEM bytes or a parsed `KeyObject`. */
export type RsaKeyInput = string | Buffer | KeyObject;

/**
 * Most keys a cache holds; the oldest entry is dropped past this. A parsed key costs ~4.5 KiB
 * and a re-parse ~15 µs, and the hot path (aes requests) checks tokens without a key object,
 * so a small cache per thread beats one entry per minion.
 */
const CACHE_LIMIT = 1024;

const privateCache = new Map<string, KeyObject>();
const publicCache = new Map<string, KeyObject>();
const modulusCache = new WeakMap<KeyObject, RsaModulus>();

/** The public modulus of a key, as a BigInt and its length in bytes. */
export interface RsaModulus {
  n: bigint;
  bytes: number;
  be: Buffer; // n as `bytes` big-endian bytes (its own memory, no pool slab)
}

function remember(cache: Map<string, KeyObject>, pem: string, key: KeyObject): KeyObject {
  if (cache.size >= CACHE_LIMIT) {
    const oldest = cache.keys().next();
    if (!oldest.done) cache.delete(oldest.value);
  }
  cache.set(pem, key);
  return key;
}

function requireRsa(key: KeyObject, kind: 'private' | 'public'): KeyObject {
  if (key.asymmetricKeyType !== 'rsa') {
    throw new SALT_ERR_CRYPT_KEY(`expected an RSA ${kind} key, got ${key.asymmetricKeyType ?? key.type}`);
  }
  return key;
}

/** The cache key: the PEM without surrounding white space (key files end in a newline, loads may not). */
function pemText(input: string | Buffer): string {
  return (typeof input === 'string' ? input : input.toString('utf8')).trim();
}

/** Parses (or fetches from the cache) an RSA private key. Throws `SALT_ERR_CRYPT_KEY` if unusable. */
export function privateKeyOf(input: RsaKeyInput): KeyObject {
  if (typeof input !== 'string' && !Buffer.isBuffer(input)) {
    if (input.type !== 'private')
      throw new SALT_ERR_CRYPT_KEY(`expected a private key, got a ${input.type} key`);
    return requireRsa(input, 'private');
  }
  const pem = pemText(input);
  const hit = privateCache.get(pem);
  if (hit) return hit;
  let key: KeyObject;
  try {
    key = fastPrivateKey(pem) ?? createPrivateKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new SALT_ERR_CRYPT_KEY('malformed RSA private key PEM', { cause });
  }
  return remember(privateCache, pem, requireRsa(key, 'private'));
}

/**
 * Parses (or fetches from the cache) an RSA public key. A private key (PEM or `KeyObject`) is
 * accepted too and yields its public half. Throws `SALT_ERR_CRYPT_KEY` if unusable.
 */
export function publicKeyOf(input: RsaKeyInput): KeyObject {
  if (typeof input !== 'string' && !Buffer.isBuffer(input)) {
    if (input.type === 'secret') throw new SALT_ERR_CRYPT_KEY('expected a public key, got a secret key');
    return requireRsa(input.type === 'private' ? createPublicKey(input) : input, 'public');
  }
  const pem = pemText(input);
  const hit = publicCache.get(pem);
  if (hit) return hit;
  let key: KeyObject;
  try {
    key = fastPublicKey(pem) ?? createPublicKey({ key: pem, format: 'pem' });
  } catch (cause) {
    throw new SALT_ERR_CRYPT_KEY('malformed RSA public key PEM', { cause });
  }
  return remember(publicCache, pem, requireRsa(key, 'public'));
}

/** The modulus n of an RSA key (public or private), cached per `KeyObject`. */
export function modulusOf(key: KeyObject): RsaModulus {
  const hit = modulusCache.get(key);
  if (hit) return hit;
  const jwk = key.export({ format: 'jwk' });
  if (typeof jwk.n !== 'string') throw new SALT_ERR_CRYPT_KEY('RSA key without a modulus');
  const raw = Buffer.from(new Uint8Array(Buffer.from(jwk.n, 'base64url')).buffer);
  const value: RsaModulus = { n: BigInt(`0x${raw.toString('hex')}`), bytes: raw.length, be: raw };
  modulusCache.set(key, value);
  return value;
}

/** Empties the PEM caches (tests, key rotation). */
export function clearRsaKeyCache(): void {
  privateCache.clear();
  publicCache.clear();
}
