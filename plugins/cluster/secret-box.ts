/**
 * Secrets the cluster keeps in its database (the masters' AES key, the minions' session keys)
 * are sealed under the cluster key first: AES-256-GCM, a fresh 12-byte nonce per seal, and the
 * cluster id with the secret's name as associated data, so a row copied under another name or
 * into another cluster does not open. The database never holds them in the clear.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

function aad(cluster: string, name: string): Buffer {
  return Buffer.from(`${cluster}\0${name}`, 'utf8');
}

/** `nonce | tag | ciphertext` of `plain` under `key` (32 bytes). */
export function sealSecret(key: Buffer, cluster: string, name: string, plain: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(aad(cluster, name));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** The plain bytes of a sealed secret, or undefined when it does not open (another key, name or cluster). */
export function openSecret(key: Buffer, cluster: string, name: string, sealed: Buffer): Buffer | undefined {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
    decipher.setAAD(aad(cluster, name));
    decipher.setAuthTag(sealed.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(sealed.subarray(NONCE_BYTES + TAG_BYTES)), decipher.final()]);
  } catch {
    return undefined;
  }
}
