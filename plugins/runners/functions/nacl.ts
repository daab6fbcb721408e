/**
 * Salt's `nacl` runner (salt/runners/nacl.py): the nacl execution module's functions run on the
 * master with the master's options (keys default to `<pki_dir>/master/nacl` and `nacl.pub`
 * under the master's pki_dir). The work is modules/_nacl-fns.ts, shared with the module.
 */
import { z } from 'zod';
import { defineRunner, defineRunnerFunction } from '../../../kernel/index.js';
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
} from '../../../modules/_nacl-fns.js';
import { pyTracebackOf, pythonError } from '../../../modules/_py-exception.js';

/** The Python class Salt's runner shows for each message the shared nacl code throws. */
const PY_CLASSES: ReadonlyArray<[RegExp, string]> = [
  [/^(An error occurred trying to decrypt|Decryption failed\.)/, 'nacl.exceptions.CryptoError'],
  [/^The (public key|key|nonce) must be exactly/, 'nacl.exceptions.ValueError'],
  [/^(PrivateKey must be|Input cyphertext must be)/, 'nacl.exceptions.TypeError'],
  [/^expected str, bytes/, 'TypeError'],
  [/^(Incorrect padding|Invalid base64-encoded string|Non-base64 digit)/, 'binascii.Error'],
  [/^\[Errno 2\]/, 'FileNotFoundError'],
  [/^\[Errno 13\]/, 'PermissionError'],
  [/^\[Errno 21\]/, 'IsADirectoryError'],
];

/**
 * Salt's runner shows the exception's class and a Python traceback: salt/utils/nacl.py raises
 * bare `Exception`s, PyNaCl and base64 their own classes, where the module's shared code throws
 * CommandExecutionError (for salt-call's `Error running`). The runner client prints an error's
 * stack, so the stack becomes the traceback's text.
 */
async function bare<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    let py = err;
    if ((err as { code?: string }).code === 'SALT_ERR_EXEC_COMMAND') {
      const message = (err as Error).message;
      py = pythonError(PY_CLASSES.find(([re]) => re.test(message))?.[1] ?? 'Exception', message);
    }
    if (py instanceof Error) py.stack = pyTracebackOf(py, py.name === 'Error' ? 'Exception' : py.name);
    throw py;
  }
}

const data = z.object({ data: z.unknown() });
const file = z.object({ name: z.string(), out: z.string().nullable().default(null) });
const KEYS =
  '\n\nKeys come from the keywords sk/pk (base64 text) or sk_file/pk_file, over the nacl.config option, over <pki_dir>/master/nacl and nacl.pub.';
const cli = (example: string) => `\n\nCLI Example:\n\n    salt-run ${example}`;

export default defineRunner({
  name: 'nacl',
  doc: "Encrypt and decrypt values on the master with NaCl (libsodium) boxes, compatible with Salt's nacl runner, module and renderer.",
  virtual: (ctx) =>
    ctx.opts.fips_mode !== true || { ok: false, reason: 'nacl runner not available in FIPS mode' },
  functions: {
    keygen: defineRunnerFunction({
      args: z.object({
        sk_file: z.string().nullable().default(null),
        pk_file: z.string().nullable().default(null),
      }),
      varkw: true,
      doc: `Generate a key pair. Without sk_file, return it as {sk, pk} (base64); with sk_file, write the secret key there (and the public key to pk_file, default <sk_file>.pub); when only sk_file exists, write its public key.${cli('nacl.keygen sk_file=/etc/salt/pki/master/nacl')}`,
      run: (_ctx, a, x) => bare(keygen(a.sk_file, a.pk_file, x.kwargs)),
    }),
    enc: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Encrypt data with the configured box_type: sealedbox (the default) or secretbox.${KEYS}${cli('nacl.enc datatoenc')}`,
      run: (ctx, a, x) => bare(naclEnc(ctx, a.data, x.kwargs)),
    }),
    enc_file: defineRunnerFunction({
      args: file,
      varkw: true,
      doc: `Encrypt a file's content; write it to out when given (which must not exist).${cli('nacl.enc_file name=/tmp/id_rsa')}`,
      run: (ctx, a, x) => bare(encFile(ctx, a.name, a.out, x.kwargs)),
    }),
    dec: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Decrypt data with the configured box_type: sealedbox (the default) or secretbox.${KEYS}${cli('nacl.dec pEXHQM6cuaF7A=')}`,
      run: (ctx, a, x) => bare(naclDec(ctx, a.data, x.kwargs)),
    }),
    dec_file: defineRunnerFunction({
      args: file,
      varkw: true,
      doc: `Decrypt a file's content; write it to out when given (which must not exist).${cli('nacl.dec_file name=/tmp/id_rsa.nacl')}`,
      run: (ctx, a, x) => bare(decFile(ctx, a.name, a.out, x.kwargs)),
    }),
    sealedbox_encrypt: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Encrypt data for the public key (pk or pk_file); only the secret key decrypts it.${cli('nacl.sealedbox_encrypt datatoenc')}`,
      run: (ctx, a, x) => bare(sealedEncrypt(ctx, a.data, x.kwargs)),
    }),
    sealedbox_decrypt: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Decrypt sealedbox_encrypt's output with the secret key (sk or sk_file).${cli('nacl.sealedbox_decrypt pEXHQM6cuaF7A=')}`,
      run: (ctx, a, x) => bare(sealedDecrypt(ctx, a.data, x.kwargs)),
    }),
    secretbox_encrypt: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Encrypt data with the secret key (sk or sk_file); the same key decrypts it.${cli('nacl.secretbox_encrypt datatoenc')}`,
      run: (ctx, a, x) => bare(secretEncrypt(ctx, a.data, x.kwargs)),
    }),
    secretbox_decrypt: defineRunnerFunction({
      args: data,
      varkw: true,
      doc: `Decrypt secretbox_encrypt's output with the secret key (sk or sk_file).${cli('nacl.secretbox_decrypt pEXHQM6cuaF7A=')}`,
      run: (ctx, a, x) => bare(secretDecrypt(ctx, a.data, x.kwargs)),
    }),
  },
});
