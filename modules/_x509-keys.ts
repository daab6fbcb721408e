/**
 * Private and public keys for the `x509` module, over Node's crypto: generating them the way
 * Salt's x509_v2 does (RSA 2048/3072/4096, EC on P-256/384/521, Ed25519, Ed448), loading them from
 * a path, PEM, `b64:`, hex or base64 text, and writing them as PKCS#8 PEM or DER.
 */
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  X509Certificate,
} from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';

const PEM_BEGIN = '-----BEGIN';

/** The curves Salt accepts by their key size. */
const EC_CURVES: Readonly<Record<number, string>> = { 256: 'prime256v1', 384: 'secp384r1', 521: 'secp521r1' };

/** A new private key: `algo` rsa (default 2048 bits), ec (default 256), ed25519 or ed448. */
export function generatePrivateKey(algo: string, keysize: number | undefined): KeyObject {
  if (algo === 'rsa') {
    const bits = keysize ?? 2048;
    if (![2048, 3072, 4096].includes(bits)) {
      throw new SALT_ERR_INVOCATION('RSA key size must be either 2048, 3072 or 4096 bits.');
    }
    return generateKeyPairSync('rsa', { modulusLength: bits, publicExponent: 65537 }).privateKey;
  }
  if (algo === 'ec') {
    const curve = EC_CURVES[keysize ?? 256];
    if (!curve) throw new SALT_ERR_INVOCATION('EC key size must be either 256, 384, 521 bits.');
    return generateKeyPairSync('ec', { namedCurve: curve }).privateKey;
  }
  if (algo === 'ed25519') return generateKeyPairSync('ed25519').privateKey;
  if (algo === 'ed448') return generateKeyPairSync('ed448').privateKey;
  throw new SALT_ERR_INVOCATION(
    `Invalid algorithm specified for generating private key: ${algo}. Valid: rsa, ec, ed25519, ed448`,
  );
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The bytes a reference stands for, as Salt's `load_file_or_bytes`: an existing file's content,
 * `b64:` text, PEM text as is, else hex, else base64.
 */
export function loadFileOrBytes(ref: string | Uint8Array): Buffer {
  if (typeof ref !== 'string') return Buffer.from(ref);
  if (isFile(ref)) return readFileSync(ref);
  if (ref.startsWith('b64:')) return Buffer.from(ref.slice(4), 'base64');
  if (ref.includes(PEM_BEGIN)) return Buffer.from(ref, 'utf8');
  if (/^([0-9a-fA-F]{2})*$/.test(ref)) return Buffer.from(ref, 'hex');
  if (/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(ref)) return Buffer.from(ref, 'base64');
  throw new SALT_ERR_INVOCATION(
    'Could not load provided source. You need to pass an existing file, (PEM|hex|base64)-encoded string or raw bytes.',
  );
}

/** Node's error for a key read with a wrong passphrase, or one that needs a passphrase. */
function keyReadError(err: unknown, pem: boolean): Error {
  const msg = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: string } | null)?.code ?? '';
  // OpenSSL 3 in Node reports a missing passphrase as an interrupted read.
  if (/passphrase required|interrupted or cancelled/i.test(msg) || code === 'ERR_MISSING_PASSPHRASE') {
    return new SALT_ERR_INVOCATION('Private key is encrypted. Please provide a password.');
  }
  if (/bad decrypt/i.test(msg)) return new SALT_ERR_INVOCATION('Bad decrypt - is the password correct?');
  return pem
    ? new SALT_ERR_EXEC_COMMAND('Could not load PEM-encoded private key')
    : new SALT_ERR_INVOCATION('Could not deserialize binary data, neither as DER nor PKCS#12.');
}

/** A private key from any reference Salt takes; `passphrase` when it is encrypted. */
export function loadPrivateKey(ref: string | Uint8Array, passphrase?: string): KeyObject {
  const data = loadFileOrBytes(ref);
  const pem = data.includes(PEM_BEGIN);
  const passOpt = passphrase === undefined ? {} : { passphrase };
  try {
    if (pem) return createPrivateKey({ key: data, format: 'pem', ...passOpt });
    try {
      return createPrivateKey({ key: data, format: 'der', type: 'pkcs8', ...passOpt });
    } catch (err) {
      if (/bad decrypt|passphrase/i.test(String(err))) throw err;
      for (const type of ['pkcs1', 'sec1'] as const) {
        try {
          return createPrivateKey({ key: data, format: 'der', type });
        } catch {
          // the next one
        }
      }
      throw err;
    }
  } catch (err) {
    throw keyReadError(err, pem);
  }
}

/** A public key from a public key, certificate, private key or CSR reference (Salt's order). */
export function loadAnyPublicKey(ref: string | Uint8Array, passphrase?: string): KeyObject {
  let data: Buffer;
  try {
    data = loadFileOrBytes(ref);
  } catch {
    throw new SALT_ERR_EXEC_COMMAND('Could not load key as certificate, public key, private key or CSR');
  }
  const pem = data.includes(PEM_BEGIN);
  const tries: (() => KeyObject)[] = [
    () => createPublicKey(pem ? { key: data, format: 'pem' } : { key: data, format: 'der', type: 'spki' }),
    () => new X509Certificate(data).publicKey,
    () => createPublicKey(loadPrivateKey(data, passphrase)),
  ];
  for (const t of tries) {
    try {
      const k = t();
      if (k.type === 'public') return k;
    } catch {
      // the next reading
    }
  }
  throw new SALT_ERR_EXEC_COMMAND('Could not load key as certificate, public key, private key or CSR');
}

/** The key's size in bits (RSA modulus, EC curve), null for Edwards curves, as Salt. */
export function privateKeySize(key: KeyObject): number | null {
  const d = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === 'rsa' || key.asymmetricKeyType === 'rsa-pss') return d?.modulusLength ?? null;
  if (key.asymmetricKeyType === 'ec') {
    const curve = d?.namedCurve ?? '';
    const bits = Object.entries(EC_CURVES).find(([, c]) => c === curve)?.[0];
    return bits ? Number(bits) : null;
  }
  return null;
}

/** The SubjectPublicKeyInfo PEM of a key. */
export function publicPem(key: KeyObject): string {
  const pub = key.type === 'public' ? key : createPublicKey(key);
  return String(pub.export({ type: 'spki', format: 'pem' }));
}

/** Whether two keys are the same public key. */
export function samePublicKey(a: KeyObject, b: KeyObject): boolean {
  const der = (k: KeyObject) =>
    (k.type === 'public' ? k : createPublicKey(k)).export({ type: 'spki', format: 'der' });
  return der(a).equals(der(b));
}

/**
 * A private key encoded as PKCS#8: PEM text, or base64 DER; encrypted (AES-256-CBC under PBES2)
 * when a passphrase is given. PKCS#12 is not written (SALT_ERR_EXEC_COMMAND).
 */
export function encodePrivateKey(key: KeyObject, encoding: string, passphrase?: string): Buffer {
  if (!['der', 'pem', 'pkcs12'].includes(encoding)) {
    throw new SALT_ERR_EXEC_COMMAND(`Invalid value '${encoding}' for encoding. Valid: der, pem, pkcs12`);
  }
  if (encoding === 'pkcs12') {
    throw new SALT_ERR_EXEC_COMMAND('tsalt does not write PKCS#12 private keys yet: use pem or der.');
  }
  const cipher = passphrase === undefined ? {} : { cipher: 'aes-256-cbc', passphrase };
  if (encoding === 'der') return key.export({ type: 'pkcs8', format: 'der', ...cipher });
  return Buffer.from(String(key.export({ type: 'pkcs8', format: 'pem', ...cipher })), 'utf8');
}

/** A public key only (Salt's `load_pubkey`): PEM `PUBLIC KEY` or DER SubjectPublicKeyInfo. */
export function loadPublicKey(ref: string): KeyObject {
  const data = loadFileOrBytes(ref);
  const pem = data.includes(PEM_BEGIN);
  try {
    const key = createPublicKey(
      pem ? { key: data, format: 'pem' } : { key: data, format: 'der', type: 'spki' },
    );
    if (pem && !data.includes('-----BEGIN PUBLIC KEY-----')) throw new Error('not a public key');
    return key;
  } catch {
    throw new SALT_ERR_EXEC_COMMAND(`Could not load ${pem ? 'PEM' : 'DER'}-encoded public key.`);
  }
}
