/**
 * Key fingerprints as `salt-key -F` and `key.finger` print them (`salt.utils.crypt.pem_finger`):
 * the hex digest of the PEM body, written as `:`-separated pairs.
 */
import { createHash, getHashes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SALT_ERR_CRYPT_ALGO } from '../errors.js';

/** Python `hashlib` names Node knows under another name (the rest are spelled alike). */
export const PY_HASH_NAMES: Readonly<Record<string, string>> = {
  sha3_224: 'sha3-224',
  sha3_256: 'sha3-256',
  sha3_384: 'sha3-384',
  sha3_512: 'sha3-512',
  blake2b: 'blake2b512',
  blake2s: 'blake2s256',
};

let nodeHashes: ReadonlySet<string> | undefined;

function hashName(hashType: string): string {
  const name = PY_HASH_NAMES[hashType] ?? hashType;
  nodeHashes ??= new Set(getHashes());
  if (!nodeHashes.has(name)) throw new SALT_ERR_CRYPT_ALGO(hashType);
  return name;
}

/** Hashes bytes and renders the hex digest as `aa:bb:cc:...`. */
function finger(data: Buffer, hashType: string): string {
  const hex = createHash(hashName(hashType)).update(data).digest('hex');
  return hex.replace(/(..)(?!$)/g, '$1:');
}

/** Bytes Python's `bytes.strip()` removes: space, \t, \n, \v, \f, \r. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

/**
 * The bytes pem_finger hashes for a key file: its lines (split after each `\n`, endings kept)
 * that are not blank, without the first (BEGIN) and last (END) one, joined, `\r\n` → `\n`.
 */
export function pemFingerBytes(pemText: string | Buffer): Buffer {
  const raw = typeof pemText === 'string' ? Buffer.from(pemText, 'utf8') : pemText;
  const lines: Buffer[] = [];
  let start = 0;
  while (start < raw.length) {
    const nl = raw.indexOf(0x0a, start);
    const end = nl === -1 ? raw.length : nl + 1;
    const line = raw.subarray(start, end);
    if (line.some((b) => !isAsciiSpace(b))) lines.push(line);
    start = end;
  }
  const body = Buffer.concat(lines.slice(1, -1));
  return Buffer.from(body.toString('latin1').replaceAll('\r\n', '\n'), 'latin1');
}

/**
 * Fingerprint of a PEM key file's content (Salt's `pem_finger(path, sum_type)` form).
 * @example pemFinger(readFileSync('/etc/salt/pki/master/master.pub', 'utf8')) // 'c6:95:28:...'
 */
export function pemFinger(pemText: string | Buffer, hashType = 'sha256'): string {
  return finger(pemFingerBytes(pemText), hashType);
}

/** Fingerprint of a string hashed as it is (Salt's `pem_finger(key=<string>)` form). */
export function pemFingerOfString(text: string | Buffer, hashType = 'sha256'): string {
  return finger(typeof text === 'string' ? Buffer.from(text, 'utf8') : text, hashType);
}

/** Fingerprint of a key file on disk; `''` when the file does not exist (as Salt). */
export async function pemFingerOfFile(path: string, hashType = 'sha256'): Promise<string> {
  let content: Buffer;
  try {
    content = await readFile(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return '';
    throw err;
  }
  return pemFinger(content, hashType);
}
