/**
 * `gpg.sign`, `gpg.verify`, `gpg.encrypt` and `gpg.decrypt` of Salt's `gpg` module, running gpg
 * as python-gnupg 0.4.9's `sign_file`, `verify_file`, `encrypt_file` and `decrypt_file` do.
 * Where Salt returns python-gnupg's `data` (bytes), tsalt returns the text.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { cli } from './_file-args.js';
import { optText, requirePassphrase, USER_DOC } from './_gpg-args.js';
import { gpgHome } from './_gpg-home.js';
import { type GpgRun, runGpg } from './_gpg-run.js';
import { cryptOutcome, verifyOutcome } from './_gpg-status.js';

/** Salt's `VERIFY_TRUST_LEVELS`. */
const VERIFY_TRUST: readonly string[] = ['Undefined', 'Never', 'Marginal', 'Fully', 'Ultimate'];
const TRUST_MODELS = ['pgp', 'classic', 'tofu', 'tofu+pgp', 'direct', 'always', 'auto'];

/** python-gnupg's `set_output_without_confirmation`. */
function outputArgs(output: string): string[] {
  return existsSync(output) ? ['--yes', '--output', output] : ['--output', output];
}

/**
 * The contents of `filename`; one it cannot open is a command error with Python's message
 * (Salt's functions crash there with an unhandled `FileNotFoundError`).
 */
async function readInput(filename: string): Promise<Buffer> {
  try {
    return await readFile(filename);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    throw new SALT_ERR_EXEC_COMMAND(
      `[Errno ${os.constants.errno[err.code as keyof typeof os.constants.errno] ?? ''}] ${err.code === 'ENOENT' ? 'No such file or directory' : err.message}: '${filename}'`,
    );
  }
}

/** Salt's shape for an encryption or decryption run: `{res, comment}`, the text when `bare`; gpg's stderr logged on failure. */
function cryptReturn(
  ctx: ExecContext,
  r: GpgRun,
  verb: string,
  output: string | null | undefined,
  bare: boolean,
): unknown {
  const o = cryptOutcome(r.status);
  if (o.ok) {
    const data = r.stdout.toString('utf8');
    if (bare) return data;
    return { res: true, comment: output ? `${verb} data has been written to ${output}` : data };
  }
  ctx.log.error(r.stderr);
  if (bare) return false;
  return { res: false, comment: `${o.status}.\nPlease check the salt-minion log.` };
}

export const sign = defineFunction({
  args: (z) =>
    z.object({
      user: z.string().nullish(),
      keyid: optText(z),
      text: optText(z),
      filename: z.string().nullish(),
      output: z.string().nullish(),
      use_passphrase: pyFlag(z, false),
      gnupghome: z.string().nullish(),
    }),
  doc: `Sign a message or a file (a clear signature). keyid: the signing key (default: the first secret key); text or filename: what to sign; output: the file the signed data is written to (with filename); use_passphrase: the key's passphrase is pillar gpg_passphrase.${USER_DOC} Returns the signed text.${cli("salt '*' gpg.sign text='Hello there.  How are you?'")}`,
  run: async (ctx, a) => {
    const home = await gpgHome(ctx, a.user, a.gnupghome);
    const passphrase = a.use_passphrase ? await requirePassphrase(ctx) : null;
    let input: Buffer;
    if (a.text) input = Buffer.from(a.text);
    else if (a.filename) input = await readInput(a.filename);
    else throw new SALT_ERR_INVOCATION('filename or text must be passed.');
    const args = ['-sa', '--clearsign'];
    if (a.keyid) args.push('--default-key', a.keyid);
    const r = await runGpg(home, args, { input, passphrase });
    const data = r.stdout.toString('utf8');
    if (!a.text && a.output) await writeFile(a.output, r.stdout);
    return data;
  },
});

export const verify = defineFunction({
  args: (z) =>
    z.object({
      text: optText(z),
      user: z.string().nullish(),
      filename: z.string().nullish(),
      gnupghome: z.string().nullish(),
      signature: z.string().nullish(),
      trustmodel: z.string().nullish(),
    }),
  doc: `Verify a signed message or file. text or filename: what to verify; signature: a detached signature file for filename; trustmodel: one of ${TRUST_MODELS.join(', ')}.${USER_DOC} Returns {res, username, key_id, trust_level, message}.${cli("salt '*' gpg.verify text='Hello there.  How are you?'")}`,
  run: async (ctx, a) => {
    const home = await gpgHome(ctx, a.user, a.gnupghome);
    if (a.trustmodel && !TRUST_MODELS.includes(a.trustmodel)) {
      const message = `Invalid trustmodel defined: ${a.trustmodel}. Use one of: ${TRUST_MODELS.join(', ')}`;
      ctx.log.warn(message);
      return { res: false, message };
    }
    const extra = a.trustmodel ? ['--trust-model', a.trustmodel] : [];
    let status: Awaited<ReturnType<typeof runGpg>>['status'];
    if (a.text) status = (await runGpg(home, ['--verify', ...extra], { input: a.text })).status;
    else if (a.filename && a.signature) {
      const sig = await readInput(a.signature);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'pygpg'));
      try {
        const sigFile = path.join(dir, 'sig');
        await writeFile(sigFile, sig, { mode: 0o600 });
        status = (await runGpg(home, ['--verify', ...extra, sigFile, a.filename])).status;
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    } else if (a.filename) {
      const input = await readInput(a.filename);
      status = (await runGpg(home, ['--verify', ...extra], { input })).status;
    } else throw new SALT_ERR_INVOCATION('filename or text must be passed.');
    const v = verifyOutcome(status);
    if (v.trustLevel === null) return { res: false, message: 'The signature could not be verified.' };
    return {
      res: true,
      username: v.username,
      key_id: v.keyId,
      trust_level: VERIFY_TRUST[v.trustLevel],
      message: 'The signature is verified.',
    };
  },
});

export const encrypt = defineFunction({
  args: (z) =>
    z.object({
      user: z.string().nullish(),
      recipients: z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))]).nullish(),
      text: optText(z),
      filename: z.string().nullish(),
      output: z.string().nullish(),
      sign: z.unknown().optional(),
      use_passphrase: pyFlag(z, false),
      always_trust: pyFlag(z, false),
      gnupghome: z.string().nullish(),
      bare: pyFlag(z, false),
    }),
  doc: `Encrypt a message or a file. recipients: key IDs, fingerprints, user IDs or emails (a list, or one); text or filename: what to encrypt; output: write the (armored) result there; sign: also sign (True for the default key, or a key to sign with); use_passphrase: the signing key's passphrase is pillar gpg_passphrase; always_trust: skip key validation; bare: return the armored text alone.${USER_DOC}${cli("salt '*' gpg.encrypt text='Hello there.  How are you?' recipients=recipient@example.com")}`,
  run: async (ctx, a) => {
    const home = await gpgHome(ctx, a.user, a.gnupghome);
    const passphrase = a.sign && a.use_passphrase ? await requirePassphrase(ctx) : null;
    let input: Buffer;
    if (a.text) input = Buffer.from(a.text);
    else if (a.filename) input = await readInput(a.filename);
    else throw new SALT_ERR_INVOCATION('filename or text must be passed.');
    const recipients = Array.isArray(a.recipients) ? a.recipients : a.recipients ? [a.recipients] : [];
    if (!recipients.length)
      throw new SALT_ERR_INVOCATION('No recipients specified with asymmetric encryption');
    const args = ['--encrypt'];
    for (const r of recipients) args.push('--recipient', String(r));
    args.push('--armor');
    if (a.output) args.push(...outputArgs(a.output));
    if (a.sign === true) args.push('--sign');
    else if (a.sign) args.push('--sign', '--default-key', String(a.sign));
    if (a.always_trust) args.push('--always-trust');
    return cryptReturn(ctx, await runGpg(home, args, { input, passphrase }), 'Encrypted', a.output, a.bare);
  },
});

export const decrypt = defineFunction({
  args: (z) =>
    z.object({
      user: z.string().nullish(),
      text: optText(z),
      filename: z.string().nullish(),
      output: z.string().nullish(),
      use_passphrase: pyFlag(z, false),
      gnupghome: z.string().nullish(),
      bare: pyFlag(z, false),
    }),
  doc: `Decrypt a message or a file. text or filename: what to decrypt; output: write the plain data there (with filename); use_passphrase: the key's passphrase is pillar gpg_passphrase; bare: return the decrypted text alone.${USER_DOC}${cli("salt '*' gpg.decrypt filename='/path/to/important.file.gpg' use_passphrase=True")}`,
  run: async (ctx, a) => {
    const home = await gpgHome(ctx, a.user, a.gnupghome);
    const passphrase = a.use_passphrase ? await requirePassphrase(ctx) : null;
    const args = ['--decrypt'];
    let input: Buffer;
    if (a.text) input = Buffer.from(a.text);
    else if (a.filename) {
      input = await readInput(a.filename);
      // as Salt's, only a file's decryption goes to `output` (a text's is only said to)
      if (a.output) args.push(...outputArgs(a.output));
    } else throw new SALT_ERR_INVOCATION('filename or text must be passed.');
    return cryptReturn(ctx, await runGpg(home, args, { input, passphrase }), 'Decrypted', a.output, a.bare);
  },
});
