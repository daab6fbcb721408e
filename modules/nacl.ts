/**
 * Salt's `nacl` execution module (salt/modules/nacl.py over salt/utils/nacl.py): Curve25519 key
 * pairs, sealed boxes (encrypt with the public key, decrypt with the secret key) and secret boxes
 * (one key both ways), everything base64 as Salt writes it, so a value encrypted here decrypts in
 * Salt and the other way round. Returns are bytes (Buffers) where Salt's are. Keys and plaintext
 * are never logged.
 */
import { statSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import type { ExecContext, ExtraArgs } from '../kernel/index.js';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
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
import { b64decodeLoose, naclConfig, publicKey, secretKey } from './_nacl-keys.js';

type Kwargs = Record<string, unknown>;

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

async function sealedEncrypt(ctx: ExecContext, data: unknown, kw: Kwargs): Promise<Buffer> {
  const message = toBytes(data);
  const pk = publicKey(naclConfig(ctx, kw));
  if (pk.length !== 32) throw new SALT_ERR_EXEC_COMMAND('The public key must be exactly 32 bytes long');
  return b64(crypto(() => sealedBoxEncrypt(message, pk)));
}

async function sealedDecrypt(ctx: ExecContext, data: unknown, kw: Kwargs): Promise<Buffer | null> {
  if (data === null || data === undefined) return null;
  const cipher = toBytes(data);
  const sk = secretKey(naclConfig(ctx, kw));
  if (sk.length !== 32)
    throw new SALT_ERR_EXEC_COMMAND('PrivateKey must be created from a 32 bytes long raw secret key');
  const sealed = b64decodeLoose(cipher.toString('latin1'));
  if (sealed.length < 48) throw new SALT_ERR_EXEC_COMMAND('Input cyphertext must be at least 48 long');
  return Buffer.from(crypto(() => sealedBoxDecrypt(sealed, sk)));
}

async function secretEncrypt(ctx: ExecContext, data: unknown, kw: Kwargs): Promise<Buffer> {
  const message = toBytes(data);
  const key = secretKey(naclConfig(ctx, kw));
  if (key.length !== 32) throw new SALT_ERR_EXEC_COMMAND('The key must be exactly 32 bytes long');
  return b64(crypto(() => secretBoxEncrypt(message, key)));
}

async function secretDecrypt(ctx: ExecContext, data: unknown, kw: Kwargs): Promise<Buffer | null> {
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
export async function naclEnc(ctx: ExecContext, data: unknown, kwargs: Kwargs): Promise<Buffer> {
  const kw = legacyKeywords(kwargs);
  const { box_type } = naclConfig(ctx, kw);
  return box_type === 'secretbox' ? secretEncrypt(ctx, data, kw) : sealedEncrypt(ctx, data, kw);
}

/** Salt's `dec`: `{box_type}_decrypt`. */
export async function naclDec(ctx: ExecContext, data: unknown, kwargs: Kwargs): Promise<Buffer | null> {
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
async function fileText(name: string): Promise<string> {
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

async function writeOut(out: string, data: Buffer | null): Promise<string> {
  if (isFile(out)) throw new SALT_ERR_EXEC_COMMAND(`file:${out} already exist.`);
  await writeFile(out, data ?? Buffer.alloc(0));
  return `Wrote: ${out}`;
}

/** Salt writes the secret key file with `os.chmod(path, 1536)`: mode 03000, as measured. */
const SK_FILE_MODE = 0o3000;

async function keygen(sk?: string | null, pk?: string | null, kwargs: Kwargs = {}): Promise<unknown> {
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

const cli = (example: string) => `\n\nCLI Example:\n\n    salt-call --local ${example}`;
const KEYS =
  '\n\nKeys come from the keywords sk/pk (base64 text) or sk_file/pk_file, over the nacl.config option, over <pki_dir>/master/nacl and nacl.pub.';

export default defineModule({
  name: 'nacl',
  doc: "Encrypt and decrypt values with NaCl (libsodium) boxes, compatible with Salt's nacl module and renderer.",
  virtual: (ctx) =>
    ctx.opts.fips_mode !== true || { ok: false, reason: 'nacl module not available in FIPS mode' },
  functions: {
    keygen: defineFunction({
      args: (z) =>
        z.object({
          sk_file: z.string().nullable().default(null),
          pk_file: z.string().nullable().default(null),
        }),
      varkw: true,
      doc: `Generate a key pair. Without sk_file, return it as {sk, pk} (base64); with sk_file, write the secret key there (and the public key to pk_file, default <sk_file>.pub); when only sk_file exists, write its public key.${cli('nacl.keygen sk_file=/etc/salt/pki/master/nacl')}`,
      run: (_ctx, a, x: ExtraArgs) => keygen(a.sk_file, a.pk_file, x.kwargs),
    }),
    enc: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Encrypt data with the configured box_type: sealedbox (the default) or secretbox. The deprecated key/keyfile keywords mean secretbox.${KEYS}${cli('nacl.enc datatoenc')}`,
      run: (ctx, a, x) => naclEnc(ctx, a.data, x.kwargs),
    }),
    enc_file: defineFunction({
      args: (z) => z.object({ name: z.string(), out: z.string().nullable().default(null) }),
      varkw: true,
      doc: `Encrypt a file's content (a local path: as in Salt 3006, salt:// names are not read); write it to out when given (which must not exist).${cli('nacl.enc_file name=/tmp/id_rsa')}`,
      run: async (ctx, a, x) => {
        const d = await naclEnc(ctx, await fileText(a.name), x.kwargs);
        return a.out ? writeOut(a.out, d) : d;
      },
    }),
    dec: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Decrypt data with the configured box_type: sealedbox (the default) or secretbox.${KEYS}${cli('nacl.dec pEXHQM6cuaF7A=')}`,
      run: (ctx, a, x) => naclDec(ctx, a.data, x.kwargs),
    }),
    dec_file: defineFunction({
      args: (z) => z.object({ name: z.string(), out: z.string().nullable().default(null) }),
      varkw: true,
      doc: `Decrypt a file's content; write it to out when given (which must not exist).${cli('nacl.dec_file name=/tmp/id_rsa.nacl')}`,
      run: async (ctx, a, x) => {
        const d = await naclDec(ctx, await fileText(a.name), x.kwargs);
        return a.out ? writeOut(a.out, d) : d;
      },
    }),
    sealedbox_encrypt: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Encrypt data for the public key (pk or pk_file); only the secret key decrypts it.${cli('nacl.sealedbox_encrypt datatoenc pk_file=/etc/salt/pki/master/nacl.pub')}`,
      run: (ctx, a, x) => sealedEncrypt(ctx, a.data, x.kwargs),
    }),
    sealedbox_decrypt: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Decrypt sealedbox_encrypt's output with the secret key (sk or sk_file).${cli('nacl.sealedbox_decrypt data=pEXHQM6cuaF7A= sk_file=/etc/salt/pki/master/nacl')}`,
      run: (ctx, a, x) => sealedDecrypt(ctx, a.data, x.kwargs),
    }),
    secretbox_encrypt: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Encrypt data with the secret key (sk or sk_file); the same key decrypts it.${cli('nacl.secretbox_encrypt datatoenc sk_file=/etc/salt/pki/master/nacl')}`,
      run: (ctx, a, x) => secretEncrypt(ctx, a.data, x.kwargs),
    }),
    secretbox_decrypt: defineFunction({
      args: (z) => z.object({ data: z.unknown() }),
      varkw: true,
      doc: `Decrypt secretbox_encrypt's output with the secret key (sk or sk_file).${cli('nacl.secretbox_decrypt data=pEXHQM6cuaF7A= sk_file=/etc/salt/pki/master/nacl')}`,
      run: (ctx, a, x) => secretDecrypt(ctx, a.data, x.kwargs),
    }),
  },
});
