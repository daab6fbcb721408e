/**
 * Salt's `nacl` execution module (salt/modules/nacl.py over salt/utils/nacl.py): Curve25519 key
 * pairs, sealed boxes (encrypt with the public key, decrypt with the secret key) and secret boxes
 * (one key both ways), everything base64 as Salt writes it, so a value encrypted here decrypts in
 * Salt and the other way round. Returns are bytes (Buffers) where Salt's are. Keys and plaintext
 * are never logged.
 */
import type { ExtraArgs } from '../kernel/index.js';
import { defineFunction, defineModule } from '../kernel/index.js';
import {
  decFile,
  encFile,
  keygen,
  naclDec,
  naclEnc,
  sealedDecrypt,
  sealedEncrypt,
  secretDecrypt,
  secretEncrypt,
} from './_nacl-fns.js';

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
      run: (ctx, a, x) => encFile(ctx, a.name, a.out, x.kwargs),
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
      run: (ctx, a, x) => decFile(ctx, a.name, a.out, x.kwargs),
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
