/**
 * Key files as Salt keeps them: the RSA pair `<name>.pem` (0400) / `<name>.pub` (0644) in a pki
 * dir (`salt.crypt.gen_keys`, `MasterKeys`), small secret files such as `sessions/<id>`,
 * `.root_key` and AES key files (0600, temp file + rename), and Salt's `clean_key` normal form.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileIfExists, writeFileAtomic, writeFileAtomicSync } from './atomic-file.js';
import { generateRsaKeyPairAsync, type RsaKeyPair } from './rsa.js';
import { privateKeyOf, publicKeyOf, type RsaKeyInput } from './rsa-key.js';

/** Mode of a private key file (`gen_keys` chmods it 0400). */
export const PRIVATE_KEY_MODE = 0o400;
/** Mode of a public key file. */
export const PUBLIC_KEY_MODE = 0o644;
/** Mode of secret key-string files (session keys, `.root_key`, AES key files). */
export const SECRET_FILE_MODE = 0o600;

/** Characters Python's `str.strip()` removes. */
const PY_SPACE =
  '\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const PY_TRIM = new RegExp(`^[${PY_SPACE}]+|[${PY_SPACE}]+$`, 'gu');
/** Line boundaries of Python's `str.splitlines()`. */
const PY_LINE_BREAKS = '\\n\\r\\v\\f\\x1c-\\x1e\\x85\\u2028\\u2029';
const PY_LINE_BREAK = new RegExp(`\\r\\n|[${PY_LINE_BREAKS}]`, 'u');

/**
 * Salt's `clean_key`: the text stripped of surrounding whitespace, its lines re-joined with `\n`
 * (so `\r\n` and other line breaks become `\n`; no trailing newline). Keys are compared in this form.
 */
export function cleanKey(pem: string): string {
  return pem.replace(PY_TRIM, '').split(PY_LINE_BREAK).join('\n');
}

/** The SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`) of a private key. */
export function publicPemFromPrivate(privatePem: RsaKeyInput): string {
  return publicKeyOf(privateKeyOf(privatePem)).export({ type: 'spki', format: 'pem' }).toString();
}

/** A key pair read from or written to a pki dir. */
export interface LoadedKeyPair extends RsaKeyPair {
  /** True when the pair did not exist and was generated now. */
  created: boolean;
}

/** Writes `<dir>/<name>.pem` (0400) then `<dir>/<name>.pub` (0644), each atomically. */
export async function writeKeyPair(dir: string, name: string, pair: RsaKeyPair): Promise<void> {
  await writeFileAtomic(join(dir, `${name}.pem`), pair.privatePem, PRIVATE_KEY_MODE);
  await writeFileAtomic(join(dir, `${name}.pub`), pair.publicPem, PUBLIC_KEY_MODE);
}

/**
 * Loads `<dir>/<name>.pem` and `.pub`, generating the pair first when the `.pem` is missing
 * (`MasterKeys.__get_keys` / minion `get_keys`). A missing `.pub` is re-derived from the `.pem`
 * and written. If another process created the key while this one was generating, its key wins.
 * Throws `SALT_ERR_CRYPT_KEY` when the `.pem` is not a usable RSA private key.
 */
export async function loadOrCreateKeyPair(dir: string, name: string, bits = 2048): Promise<LoadedKeyPair> {
  const pemPath = join(dir, `${name}.pem`);
  const pubPath = join(dir, `${name}.pub`);
  let privatePem = await readFileIfExists(pemPath);
  if (privatePem === undefined) {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const pair = await generateRsaKeyPairAsync(bits);
    privatePem = await readFileIfExists(pemPath);
    if (privatePem === undefined) {
      await writeKeyPair(dir, name, pair);
      return { ...pair, created: true };
    }
  }
  privateKeyOf(privatePem);
  let publicPem = await readFileIfExists(pubPath);
  if (publicPem === undefined) {
    publicPem = publicPemFromPrivate(privatePem);
    await writeFileAtomic(pubPath, publicPem, PUBLIC_KEY_MODE);
  }
  return { privatePem, publicPem, created: false };
}

/** Reads a key-string file (session key, `.root_key`, AES key), or `undefined` if absent. Content is returned as is. */
export function readKeyString(path: string): Promise<string | undefined> {
  return readFileIfExists(path);
}

/** Synchronous {@link readKeyString}. */
export function readKeyStringSync(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Writes a key-string file with mode 0600 via a temp file + rename (`Crypticle.write_key`, session keys). */
export function writeKeyString(path: string, value: string): Promise<void> {
  return writeFileAtomic(path, value, SECRET_FILE_MODE);
}

/** Synchronous {@link writeKeyString}. */
export function writeKeyStringSync(path: string, value: string): void {
  writeFileAtomicSync(path, value, SECRET_FILE_MODE);
}
