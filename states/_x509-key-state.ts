/**
 * The private key half of Salt's x509 states (`private_key_managed`): reading the key on disk
 * with the passphrase given, what differs (algo, keysize, encoding, passphrase), and the new
 * key or the re-encoded old one.
 */
import type { KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import {
  encodePrivateKey,
  generatePrivateKey,
  loadPrivateKey,
  privateKeySize,
} from '../modules/_x509-keys.js';
import { keyType } from '../modules/_x509-sign.js';

type Kwargs = Record<string, unknown>;

export interface KeyOptions {
  name: string;
  algo: string;
  keysize: number | undefined;
  passphrase: string | undefined;
  encoding: string;
  new: boolean;
  overwrite: boolean;
}

/** Whether a key file is encrypted (a passphrase given for a plain key is a change). */
function encrypted(path: string): boolean {
  const text = readFileSync(path).toString('latin1');
  if (text.includes('-----BEGIN')) return /ENCRYPTED/.test(text);
  try {
    loadPrivateKey(path);
    return false;
  } catch {
    return true;
  }
}

/** Salt's reading of the key file: the key (when readable) and the changes it calls for. */
export function inspectKey(
  real: string,
  exists: boolean,
  o: KeyOptions,
): { key?: KeyObject; changes: Kwargs } {
  const changes: Kwargs = {};
  let key: KeyObject | undefined;
  if (exists && !o.new) {
    if (o.passphrase !== undefined && !encrypted(real)) {
      changes.passphrase = true;
      key = loadPrivateKey(real);
    } else {
      try {
        key = loadPrivateKey(real, o.passphrase);
      } catch (err) {
        // Salt handles only its invocation errors here; an unreadable PEM file fails as it is
        if (!(err instanceof SALT_ERR_INVOCATION)) throw err;
        const msg = err.message;
        if (msg.includes('Bad decrypt')) {
          if (!o.overwrite) {
            throw new SALT_ERR_EXEC_COMMAND(
              'The provided passphrase cannot decrypt the private key. Pass overwrite: true to force regeneration',
            );
          }
          changes.passphrase = true;
        } else if (/Could not deserialize binary data|Could not load (DER|PEM)-encoded/.test(msg)) {
          if (!o.overwrite) {
            throw new SALT_ERR_EXEC_COMMAND(
              'The existing file does not seem to be a private key formatted as DER, PEM or embedded in PKCS12. Pass overwrite: true to force regeneration',
            );
          }
        } else if (msg.includes('Private key is encrypted') && !o.passphrase) {
          if (!o.overwrite) {
            throw new SALT_ERR_EXEC_COMMAND(
              'The existing file is encrypted. Pass overwrite: true to force regeneration without passphrase',
            );
          }
          changes.passphrase = true;
        } else throw err;
      }
    }
  }
  if (key) {
    const type = keyType(key);
    const want = o.keysize ?? (o.algo === 'rsa' ? 2048 : o.algo === 'ec' ? 256 : undefined);
    if (type !== o.algo) changes.algo = o.algo;
    if (!('algo' in changes) && (o.algo === 'rsa' || o.algo === 'ec') && privateKeySize(key) !== want) {
      changes.keysize = want;
    }
    const enc = readFileSync(real).includes('-----BEGIN') ? 'pem' : 'der';
    if (o.encoding !== enc) changes.encoding = o.encoding;
  } else if (exists && o.new) changes.replaced = o.name;
  else changes.created = o.name;
  return { ...(key ? { key } : {}), changes };
}

/** The key to write: the old one re-encoded when only encoding or passphrase changed, else a new one. */
export function produceKey(changes: Kwargs, current: KeyObject | undefined, o: KeyOptions): string {
  const metaOnly = Object.keys(changes).every((k) => k === 'encoding' || k === 'passphrase');
  const key = metaOnly && current ? current : generatePrivateKey(o.algo, o.keysize);
  const out = encodePrivateKey(key, o.encoding, o.passphrase);
  return o.encoding === 'pem' ? out.toString('utf8') : out.toString('base64');
}
