/**
 * PostgreSQL password verifiers as Salt's `postgres` module builds and checks them: `md5`
 * (`md5` + md5(password + role)) and SCRAM-SHA-256 (RFC 5803 form:
 * `SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>`). A password that already is a
 * verifier is kept as it is.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

/** `encrypted` as Salt takes it: true means md5, false plain text. */
export type PgEncryption = boolean | 'md5' | 'scram-sha-256';

export function md5Verifier(role: string, password: string): string {
  return `md5${createHash('md5').update(`${password}${role}`, 'utf8').digest('hex')}`;
}

export function scramVerifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  // SASLprep, as far as Unicode normalization goes (NFKC)
  const salted = pbkdf2Sync(Buffer.from(password.normalize('NFKC'), 'utf8'), salt, iterations, 32, 'sha256');
  const stored = createHash('sha256')
    .update(createHmac('sha256', salted).update('Client Key').digest())
    .digest();
  const server = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${stored.toString('base64')}:${server.toString('base64')}`;
}

/** Salt's `_maybe_encrypt_password`: the text to put after PASSWORD. */
export function maybeEncrypt(role: string, password: string, encrypted: unknown): string {
  const method = encrypted === true ? 'md5' : encrypted;
  if (method !== false && method !== 'md5' && method !== 'scram-sha-256')
    throw new SALT_ERR_INVOCATION(`Unknown password algorithm: ${String(encrypted)}`);
  if (method === 'scram-sha-256' && !password.startsWith('SCRAM-SHA-256')) return scramVerifier(password);
  if (method === 'md5' && !password.startsWith('md5')) return md5Verifier(role, password);
  return password;
}

/** Salt's `_verify_password`: does `password` (or a verifier) match the stored `verifier`? */
export function verifyPassword(role: string, password: string, verifier: unknown, method: unknown): boolean {
  if (typeof verifier !== 'string') return false;
  if (method === 'md5' || method === true)
    return verifier === (password.startsWith('md5') ? password : md5Verifier(role, password));
  if (method === 'scram-sha-256') {
    if (password.startsWith('SCRAM-SHA-256')) return verifier === password;
    const m = /^SCRAM-SHA-256\$(\d+):([^$]+?)\$/.exec(verifier);
    if (!m) return false;
    return verifier === scramVerifier(password, Buffer.from(m[2] as string, 'base64'), Number(m[1]));
  }
  if (method === false) return verifier === password;
  return false;
}
