/**
 * The `pass` renderer (salt/renderers/pass.py): every string at any depth names a secret in the
 * `pass` password store and becomes `pass show <name>`'s output without its final line break.
 * Options as Salt's: `pass_dir` (PASSWORD_STORE_DIR), `pass_gnupghome` (GNUPGHOME),
 * `pass_variable_prefix` (only strings with the prefix are looked up, the prefix removed) and
 * `pass_strict_fetch` (a secret that cannot be fetched fails the render instead of leaving the
 * string as it was; it needs the prefix). Secrets are never logged (Salt logs a failed fetch as a
 * warning; renderers here have no logger, so it is silent).
 */
import { spawn } from 'node:child_process';
import { homedir } from 'node:os';
import { SALT_ERR_RENDER_SECRET } from './errors.js';
import { mapStrings } from './map-strings.js';
import { saltOption } from './salt-option.js';
import type { RenderContext, RendererDef, RenderStep } from './types.js';
import { renderError } from './where.js';

interface PassResult {
  readonly code: number;
  readonly out: string;
  readonly err: string;
  readonly missing?: boolean;
}

function passShow(name: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<PassResult> {
  return new Promise((resolve) => {
    const child = spawn('pass', ['show', name], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
      timeout: timeoutMs,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) =>
      resolve({ code: 1, out: '', err: e.message, missing: e.code === 'ENOENT' }),
    );
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        out: Buffer.concat(out).toString('utf8'),
        err: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

const text = (v: unknown): string => (typeof v === 'string' ? v : '');

async function fetchSecret(original: string, context: RenderContext, step: RenderStep): Promise<string> {
  const opts = context.opts;
  const where = { path: step.path, line: 0, column: 0, chain: step.chain };
  const prefix = text(saltOption(opts, 'pass_variable_prefix'));
  let name = original;
  if (prefix) {
    if (!name.startsWith(prefix)) return original;
    name = name.slice(prefix.length);
  }
  const strict = saltOption(opts, 'pass_strict_fetch') === true;
  if (strict && !prefix) {
    throw renderError(
      SALT_ERR_RENDER_SECRET,
      where,
      "The 'pass_strict_fetch' option requires 'pass_variable_prefix' option enabled",
    );
  }
  name = name.trim();
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: homedir() };
  const dir = text(saltOption(opts, 'pass_dir'));
  if (dir) env.PASSWORD_STORE_DIR = dir;
  const gnupghome = text(saltOption(opts, 'pass_gnupghome'));
  if (gnupghome) env.GNUPGHOME = gnupghome;
  step.checkDeadline();
  const r = await passShow(name, env, step.limits.timeoutMs);
  if (r.missing) throw renderError(SALT_ERR_RENDER_SECRET, where, 'pass unavailable');
  if (r.code !== 0 || !r.out) {
    const msg = `Could not fetch secret '${name}' from the password store: ${r.err}`;
    if (strict) throw renderError(SALT_ERR_RENDER_SECRET, where, msg);
    return original;
  }
  return r.out.replace(/[\r\n]+$/, '');
}

export const passRenderer: RendererDef = {
  name: 'pass',
  render: (input, context, step) => mapStrings(input, (s) => fetchSecret(s, context, step)),
};
