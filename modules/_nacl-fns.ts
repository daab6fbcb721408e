/**
 * The work of Salt's nacl functions (salt/utils/nacl.py), shared by the `nacl` execution module
 * and the `nacl` runner: key pairs, sealed boxes and secret boxes in Salt's base64, with
 * Salt's errors. Keys and plaintext are never logged.
 */
import { statSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import {
  generateKeyPair,
  NaclDecryptError,
  NaclKeyError,
  publicKeyOf,
  sealedBoxDecrypt,
  sealedBoxEncrypt,
  secretBoxDecrypt,
  secretBoxEncrypt,
} from './_nacl-box.js';
import { b64decodeLoose, type NaclCtx, naclConfig, publicKey, secretKey } from './_nacl-keys.js';

/** A call's keywords. */
export type Kwargs = Record<string, unknown>;

/** Python's `type(x)` text, for Salt's `to_bytes` refusal. */
function pyType(v: unknown): string {
  if (v === null || v === undefined) return "<class 'NoneType'>";
  if (typeof v === 'boolean') return "<class 'bool'>";
  if (typeof v === 'number') return Number.isInteger(v) ? "<class 'int'>" : "<class 'float'>";
  if (Array.isArray(v)) return "<class 'list'>";
  return "<class 'dict'>";
}

/** Salt's `to_bytes`: text as UTF-8, bytes as they are, anything else refused. */
function toBytes(data: unknown): Buffer {
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (data instanceof Uint8Array) return Buffer.from(data);
  throw new SALT_ERR_EXEC_COMMAND(`expected str, bytes, or bytearray not ${pyType(data)}`);
}

/** PyNaCl's errors keep their message; they are the caller's bad key or data, not a crash. */
function crypto<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof NaclDecryptError || err instanceof NaclKeyError)
      throw new SALT_ERR_EXEC_COMMAND(err.message);
    throw err;
  }
}

const b64 = (bytes: Uint8Array): Buffer => Buffer.from(Buffer.from(bytes).toString('base64'), 'ascii');

export async function sealedEncrypt(ctx: NaclCtx, data: unknown, kw: Kwargs): Promise<Buffer> {
  const message = toBytes(data);
  const pk = publicKey(naclConfig(ctx, kw));
  if (pk.length !== 32) throw new SALT_ERR_EXEC_COMMAND('The public key must be exactly 32 bytes long');
  return b64(crypto(() => sealedBoxEncrypt(message, pk)));
}

export async function sealedDecrypt(ctx: NaclCtx, data: unknown, kw: Kwargs): Promise<Buffer | null> {
  if (data === null || data === undefined) return null;
  const cipher = toBytes(data);
  const sk = secretKey(naclConfig(ctx, kw));
  if (sk.length !== 32)
    throw new SALT_ERR_EXEC_COMMAND('PrivateKey must be created from a 32 bytes long raw secret key');
  const sealed = b64decodeLoose(cipher.toString('latin1'));
  if (sealed.length < 48) throw new SALT_ERR_EXEC_COMMAND('Input cyphertext must be at least 48 long');
  return Buffer.from(crypto(() => sealedBoxDecrypt(sealed, sk)));
}

export async function secretEncrypt(ctx: NaclCtx, data: unknown, kw: Kwargs): Promise<Buffer> {
  const message = toBytes(data);
  const key = secretKey(naclConfig(ctx, kw));
  if (key.length !== 32) throw new SALT_ERR_EXEC_COMMAND('The key must be exactly 32 bytes long');
  return b64(crypto(() => secretBoxEncrypt(message, key)));
}

export async function secretDecrypt(ctx: NaclCtx, data: unknown, kw: Kwargs): Promise<Buffer | null> {
  if (data === null || data === undefined) return null;
  const cipher = toBytes(data);
  const key = secretKey(naclConfig(ctx, kw));
  if (key.length !== 32) throw new SALT_ERR_EXEC_COMMAND('The key must be exactly 32 bytes long');
  const box = b64decodeLoose(cipher.toString('latin1'));
  if (box.length < 24) throw new SALT_ERR_EXEC_COMMAND('The nonce must be exactly 24 bytes long');
  if (box.length < 40) throw new SALT_ERR_EXEC_COMMAND('Decryption failed. Ciphertext failed verification');
  try {
    return Buffer.from(secretBoxDecrypt(box, key));
  } catch (err) {
    if (err instanceof NaclDecryptError) {
      throw new SALT_ERR_EXEC_COMMAND('Decryption failed. Ciphertext failed verification');
    }
    throw err;
  }
}

/** `enc`/`dec`'s deprecated `keyfile`/`key` keywords: the secret key, and a secret box. */
function legacyKeywords(kw: Kwargs): Kwargs {
  const out = { ...kw };
  if ('keyfile' in kw) Object.assign(out, { sk_file: kw.keyfile, box_type: 'secretbox' });
  if ('key' in kw) Object.assign(out, { sk: kw.key, box_type: 'secretbox' });
  return out;
}

/** Salt's `enc`: `{box_type}_encrypt`, a sealed box unless the configuration says `secretbox`. */
export async function naclEnc(ctx: NaclCtx, data: unknown, kwargs: Kwargs): Promise<Buffer> {
  const kw = legacyKeywords(kwargs);
  const { box_type } = naclConfig(ctx, kw);
  return box_type === 'secretbox' ? secretEncrypt(ctx, data, kw) : sealedEncrypt(ctx, data, kw);
}

/** Salt's `dec`: `{box_type}_decrypt`. */
export async function naclDec(ctx: NaclCtx, data: unknown, kwargs: Kwargs): Promise<Buffer | null> {
  const kw = legacyKeywords(kwargs);
  const { box_type } = naclConfig(ctx, kw);
  return box_type === 'secretbox' ? secretDecrypt(ctx, data, kw) : sealedDecrypt(ctx, data, kw);
}

const isFile = (p: string): boolean => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};

/**
 * A file's text. Salt's code tries `cp.get_file_str` first, but with no `__salt__` in
 * salt/utils/nacl.py that always fails over to reading the path: `salt://` names are not files
 * there (measured), nor here.
 */
export async function fileText(name: string): Promise<string> {
  try {
    return await readFile(name, 'utf8');
  } catch (err) {
    const why =
      (err as NodeJS.ErrnoException).code === 'EISDIR'
        ? '[Errno 21] Is a directory'
        : '[Errno 2] No such file or directory';
    throw new SALT_ERR_EXEC_COMMAND(`${why}: '${name}'`);
  }
}

export async function writeOut(out: string, data: Buffer | null): Promise<string> {
  if (isFile(out)) throw new SALT_ERR_EXEC_COMMAND(`file:${out} already exist.`);
  await writeFile(out, data ?? Buffer.alloc(0));
  return `Wrote: ${out}`;
}

/** Salt writes the secret key file with `os.chmod(path, 1536)`: mode 03000, as measured. */
const SK_FILE_MODE = 0o3000;

export async function keygen(sk?: string | null, pk?: string | null, kwargs: Kwargs = {}): Promise<unknown> {
  const skFile = 'keyfile' in kwargs ? (kwargs.keyfile as string | null) : sk;
  if (skFile === null || skFile === undefined) {
    const kp = generateKeyPair();
    return { sk: b64(kp.sk), pk: b64(kp.pk) };
  }
  const pkFile = pk ?? `${skFile}.pub`;
  if (isFile(skFile) && isFile(pkFile)) {
    throw new SALT_ERR_EXEC_COMMAND(`sk_file:${skFile} and pk_file:${pkFile} already exist.`);
  }
  if (isFile(skFile)) {
    const secret = b64decodeLoose((await readFile(skFile, 'utf8')).replace(/\n+$/, ''));
    if (secret.length !== 32) {
      throw new SALT_ERR_EXEC_COMMAND('PrivateKey must be created from a 32 bytes long raw secret key');
    }
    await writeFile(pkFile, b64(publicKeyOf(secret)));
    return `saved pk_file: ${pkFile}`;
  }
  const kp = generateKeyPair();
  await writeFile(skFile, b64(kp.sk));
  await chmod(skFile, SK_FILE_MODE);
  await writeFile(pkFile, b64(kp.pk));
  return `saved sk_file:${skFile}  pk_file: ${pkFile}`;
}

/** Salt's `enc_file`: a file's content encrypted, written to `out` when given. */
export async function encFile(ctx: NaclCtx, name: string, out: string | null, kw: Kwargs): Promise<unknown> {
  const d = await naclEnc(ctx, await fileText(name), kw);
  return out ? writeOut(out, d) : d;
}

/** Salt's `dec_file`: a file's content decrypted, written to `out` when given. */
export async function decFile(ctx: NaclCtx, name: string, out: string | null, kw: Kwargs): Promise<unknown> {
  const d = await naclDec(ctx, await fileText(name), kw);
  return out ? writeOut(out, d) : d;
}
