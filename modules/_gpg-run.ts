/**
 * How Salt's `gpg` module runs gpg (python-gnupg 0.4.9's `GPG.make_args`): `gpg --status-fd 2
 * --no-tty --no-verbose --fixed-list-mode --batch --with-colons --homedir <home>`, with
 * `--pinentry-mode loopback --passphrase-fd 0` and the passphrase as stdin's first line when
 * one is given. The passphrase goes only to gpg's stdin: never to argv, a log or a return.
 * gpg's `[GNUPG:] KEY value` status lines come back parsed, its other stderr as text.
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';
import { runProcess } from './_spawn.js';

/** One `[GNUPG:] KEY value` line of gpg's status output. */
export interface GpgStatus {
  key: string;
  value: string;
}

/** What one gpg run gave. */
export interface GpgRun {
  returncode: number | null;
  stdout: Buffer;
  /** gpg's stderr, status lines included (python-gnupg's `result.stderr`). */
  stderr: string;
  status: GpgStatus[];
}

export interface GpgRunOptions {
  /** Bytes for gpg's stdin (after the passphrase line when there is one). */
  input?: Buffer | string;
  /** Sent on stdin's first line, with loopback pinentry (python-gnupg's `passphrase`). */
  passphrase?: string | null;
}

/** python-gnupg's `is_valid_passphrase`: a passphrase cannot hold a line break. */
export function checkPassphrase(passphrase: string | null | undefined): void {
  if (passphrase && /[\r\n]/.test(passphrase)) throw new SALT_ERR_INVOCATION('Invalid passphrase');
}

/** Parses gpg's status lines out of its stderr. */
export function statusLines(stderr: string): GpgStatus[] {
  const out: GpgStatus[] = [];
  for (const line of stderr.split(/\r?\n/)) {
    const m = /^\[GNUPG:\] (\S+) ?(.*)$/.exec(line);
    if (m) out.push({ key: m[1] as string, value: (m[2] as string).trimEnd() });
  }
  return out;
}

/** Runs gpg on keyring `home` with python-gnupg's fixed arguments, then `args`. */
export async function runGpg(home: string, args: readonly string[], o: GpgRunOptions = {}): Promise<GpgRun> {
  const withPass = o.passphrase !== undefined && o.passphrase !== null;
  checkPassphrase(o.passphrase);
  const argv = ['gpg', '--status-fd', '2', '--no-tty', '--no-verbose'];
  if (withPass) argv.splice(1, 0, '--pinentry-mode', 'loopback');
  argv.push('--fixed-list-mode', '--batch', '--with-colons', '--homedir', home);
  if (withPass) argv.push('--passphrase-fd', '0');
  argv.push(...args);
  const parts: Buffer[] = [];
  if (withPass && o.passphrase) parts.push(Buffer.from(`${o.passphrase}\n`));
  if (o.input !== undefined) parts.push(Buffer.isBuffer(o.input) ? o.input : Buffer.from(o.input));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  const r = await runProcess({ argv, cwd: process.cwd(), env, stdin: Buffer.concat(parts) });
  const stderr = r.stderr.toString('utf8');
  return { returncode: r.returncode, stdout: r.stdout, stderr, status: statusLines(stderr) };
}
