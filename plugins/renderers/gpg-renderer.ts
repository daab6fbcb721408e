/**
 * The `gpg` renderer (salt/renderers/gpg.py): every `-----BEGIN PGP MESSAGE-----` block in the
 * data (strings at any depth) is decrypted with the `gpg` program and the keys in `gpg_keydir`
 * (Salt's default `<config_dir>/gpgkeys`). A block that does not decrypt stays as it is, as in
 * Salt, unless `gpg_decrypt_must_succeed` is set; then the render fails naming the file.
 * Decrypted text is never logged.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { SALT_ERR_RENDER_GPG } from './errors.js';
import { mapStrings } from './map-strings.js';
import { saltOption as option } from './salt-option.js';
import type { RenderContext, RendererDef, RenderStep } from './types.js';
import { renderError } from './where.js';

const CIPHERTEXT = /-----BEGIN PGP MESSAGE-----[\s\S]*?-----END PGP MESSAGE-----/g;

/** Salt's `_get_key_dir`: `gpg_keydir`, else `gpgkeys` beside the config file. */
export function gpgKeyDir(opts: Readonly<Record<string, unknown>>): string {
  const configured = option(opts, 'gpg_keydir');
  if (typeof configured === 'string' && configured) return configured;
  const configDir =
    typeof opts.config_dir === 'string'
      ? opts.config_dir
      : typeof opts.conf_file === 'string'
        ? dirname(opts.conf_file)
        : '/etc/salt';
  return join(configDir, 'gpgkeys');
}

interface GpgResult {
  readonly out: string;
  readonly err: string;
}

function runGpg(cipher: string, keydir: string, timeoutMs: number): Promise<GpgResult> {
  return new Promise((resolve) => {
    const child = spawn('gpg', ['--homedir', keydir, '--status-fd', '2', '--no-tty', '--batch', '-d'], {
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: timeoutMs,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e) => resolve({ out: '', err: e.message }));
    child.on('close', () =>
      resolve({ out: Buffer.concat(out).toString('utf8'), err: Buffer.concat(err).toString('utf8') }),
    );
    child.stdin.on('error', () => {});
    child.stdin.end(cipher);
  });
}

async function decryptString(
  s: string,
  context: RenderContext,
  step: RenderStep,
  translateNewlines: boolean,
): Promise<string> {
  const text = translateNewlines ? s.replace(/\\n/g, '\n') : s;
  const blocks = text.match(CIPHERTEXT);
  if (!blocks) return s;
  const keydir = gpgKeyDir(context.opts);
  const mustSucceed = option(context.opts, 'gpg_decrypt_must_succeed') === true;
  let out = text;
  for (const block of blocks) {
    step.checkDeadline();
    const cipher = block.replace(/\\n/g, '\n');
    const { out: plain, err } = await runGpg(cipher, keydir, step.limits.timeoutMs);
    if (!plain) {
      if (mustSucceed) {
        const why =
          err
            .split('\n')
            .filter((l) => l && !l.startsWith('[GNUPG:]'))
            .slice(-3)
            .join('; ') || 'gpg gave no output';
        throw renderError(
          SALT_ERR_RENDER_GPG,
          { path: step.path, line: 0, column: 0, chain: step.chain },
          `could not decrypt a PGP message with the keys in ${keydir}: ${why}`,
        );
      }
      continue;
    }
    out = out.replace(block, () => plain);
  }
  return out.replace(/\n+$/, '');
}

export const gpgRenderer: RendererDef = {
  name: 'gpg',
  render: (input, context, step) => {
    const tn = /\btranslate_newlines\b/.test(step.argline);
    return mapStrings(input, (s) => decryptString(s, context, step, tn));
  },
};
