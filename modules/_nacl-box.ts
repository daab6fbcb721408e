/**
 * The three NaCl constructions Salt's `nacl` module uses, byte-compatible with PyNaCl/libsodium:
 * Curve25519 key pairs (`PrivateKey`), `SecretBox` (XSalsa20-Poly1305 with a random 24-byte
 * nonce, the nonce written before the ciphertext) and `SealedBox` (libsodium's
 * `crypto_box_seal`: an ephemeral key pair, the nonce a 24-byte BLAKE2b of the ephemeral and
 * recipient public keys, the ephemeral public key written before the box). tweetnacl does the
 * primitives.
 */
import { createRequire } from 'node:module';
import type nacl from 'tweetnacl';
import { blake2b } from './_blake2b.js';

type Nacl = typeof nacl;
let lib: Nacl | undefined;
const tweetnacl = (): Nacl => {
  lib ??= createRequire(import.meta.url)('tweetnacl') as Nacl;
  return lib;
};

export const KEY_BYTES = 32;
const NONCE_BYTES = 24;
const MAC_BYTES = 16;

/** A failed decryption: wrong key, or ciphertext altered or cut (PyNaCl's `CryptoError`). */
export class NaclDecryptError extends Error {}

/** A key of the wrong length (PyNaCl's `TypeError`/`ValueError` on construction). */
export class NaclKeyError extends Error {}

function checkKey(key: Uint8Array, what: string): void {
  if (key.length !== KEY_BYTES) throw new NaclKeyError(`The ${what} must be exactly ${KEY_BYTES} bytes long`);
}

/** A new random key pair: 32-byte secret and public keys. */
export function generateKeyPair(): { sk: Uint8Array; pk: Uint8Array } {
  const kp = tweetnacl().box.keyPair();
  return { sk: kp.secretKey, pk: kp.publicKey };
}

/** The public key of a secret key. */
export function publicKeyOf(sk: Uint8Array): Uint8Array {
  checkKey(sk, 'secret key');
  return tweetnacl().box.keyPair.fromSecretKey(sk).publicKey;
}

function sealNonce(epk: Uint8Array, pk: Uint8Array): Uint8Array {
  const both = new Uint8Array(2 * KEY_BYTES);
  both.set(epk);
  both.set(pk, KEY_BYTES);
  return blake2b(both, NONCE_BYTES);
}

/** `crypto_box_seal`: anyone with `pk` encrypts; only its secret key opens. */
export function sealedBoxEncrypt(message: Uint8Array, pk: Uint8Array): Uint8Array {
  checkKey(pk, 'public key');
  const n = tweetnacl();
  const eph = n.box.keyPair();
  const box = n.box(message, sealNonce(eph.publicKey, pk), pk, eph.secretKey);
  const out = new Uint8Array(KEY_BYTES + box.length);
  out.set(eph.publicKey);
  out.set(box, KEY_BYTES);
  return out;
}

/** `crypto_box_seal_open`. */
export function sealedBoxDecrypt(sealed: Uint8Array, sk: Uint8Array): Uint8Array {
  checkKey(sk, 'secret key');
  if (sealed.length < KEY_BYTES + MAC_BYTES)
    throw new NaclDecryptError('An error occurred trying to decrypt the message');
  const n = tweetnacl();
  const epk = sealed.subarray(0, KEY_BYTES);
  const pk = n.box.keyPair.fromSecretKey(sk).publicKey;
  const plain = n.box.open(sealed.subarray(KEY_BYTES), sealNonce(epk, pk), epk, sk);
  if (!plain) throw new NaclDecryptError('An error occurred trying to decrypt the message');
  return plain;
}

/** `SecretBox(key).encrypt`: nonce, then the authenticated ciphertext. */
export function secretBoxEncrypt(message: Uint8Array, key: Uint8Array): Uint8Array {
  checkKey(key, 'key');
  const n = tweetnacl();
  const nonce = n.randomBytes(NONCE_BYTES);
  const box = n.secretbox(message, nonce, key);
  const out = new Uint8Array(NONCE_BYTES + box.length);
  out.set(nonce);
  out.set(box, NONCE_BYTES);
  return out;
}

/** `SecretBox(key).decrypt` of nonce + ciphertext. */
export function secretBoxDecrypt(data: Uint8Array, key: Uint8Array): Uint8Array {
  checkKey(key, 'key');
  if (data.length < NONCE_BYTES + MAC_BYTES)
    throw new NaclDecryptError('An error occurred trying to decrypt the message');
  const plain = tweetnacl().secretbox.open(data.subarray(NONCE_BYTES), data.subarray(0, NONCE_BYTES), key);
  if (!plain) throw new NaclDecryptError('An error occurred trying to decrypt the message');
  return plain;
}
