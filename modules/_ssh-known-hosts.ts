/**
 * What the `ssh` module's known_hosts functions share (Salt's `salt/modules/ssh.py` helpers):
 * the file a user's or the system's known_hosts is, the `[host]:port` form ssh-keygen looks up,
 * the fingerprint of a base64 key (hex pairs, sha256 unless told), the entries parsed from
 * `ssh-keygen -F` and `ssh-keyscan` output, and running those programs through `cmd.run`.
 */
import { createHash, getHashes } from 'node:crypto';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { which } from './_which.js';

export const DEFAULT_SSH_PORT = 22;

/** One known_hosts entry (Salt's dict, in its key order). */
export interface KnownHostEntry {
  hostname: string;
  key: string;
  enc: string | null;
  fingerprint?: string;
  port?: unknown;
}

/** Salt's `{status: error, error}` answer. */
export interface SshError {
  status: 'error';
  error: string;
}

export const sshError = (error: string): SshError => ({ status: 'error', error });

export const isSshError = (v: unknown): v is SshError =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && (v as SshError).status === 'error';

/** Salt's `salt.utils.decorators.path.which`: the program, or the CommandNotFoundError text. */
export function needProgram(exe: string): void {
  if (!which(exe)) throw new SALT_ERR_EXEC_COMMAND(`The '${exe}' binary was not found in $PATH.`);
}

/** Salt's `_get_known_hosts_file`: the absolute path, or an error for an unknown user or a relative path. */
export async function knownHostsFile(
  ctx: ExecContext,
  config: string | null | undefined,
  user: string | null | undefined,
): Promise<string | SshError> {
  const file = config || (user ? '.ssh/known_hosts' : '/etc/ssh/ssh_known_hosts');
  if (path.isAbsolute(file)) return file;
  if (!user) return sshError('Cannot determine absolute path to file.');
  const info = (await ctx.call('user.info', [user])) as { home?: string } | null;
  if (!info || Object.keys(info).length === 0) return sshError(`User ${user} does not exist`);
  return path.join(String(info.home), file);
}

/** The uid and gid of `user` (for the chown Salt does as root), or undefined. */
export async function ownerOf(
  ctx: ExecContext,
  user: string,
): Promise<{ uid: number; gid: number } | undefined> {
  const info = (await ctx.call('user.info', [user])) as { uid?: number; gid?: number } | null;
  return info && typeof info.uid === 'number' && typeof info.gid === 'number'
    ? { uid: info.uid, gid: info.gid }
    : undefined;
}

/** Salt's `_hostname_and_port_to_ssh_hostname`. */
export function sshHostname(hostname: string, port: unknown): string {
  return !port || Number(port) === DEFAULT_SSH_PORT ? hostname : `[${hostname}]:${String(port)}`;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Salt's `_fingerprint`: the key's hash as `xx:xx:...`, or null for a key that is not base64. */
export function fingerprint(publicKey: string, hashType: string | null | undefined): string | null {
  const type = hashType ? hashType.toLowerCase() : 'sha256';
  if (!getHashes().includes(type))
    throw new SALT_ERR_EXEC_COMMAND(`The fingerprint_hash_type ${type} is not supported.`);
  if (!BASE64.test(publicKey)) return null;
  const hex = createHash(type).update(Buffer.from(publicKey, 'base64')).digest('hex');
  return hex.match(/../g)?.join(':') ?? '';
}

/** Salt's `_parse_openssh_output`: the `host enc key` lines with a valid key. */
export function parseOpenssh(
  lines: readonly string[],
  hashType: string | null | undefined,
): KnownHostEntry[] {
  const out: KnownHostEntry[] = [];
  for (const raw of lines) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const parts = line.split(/\s+/);
    if (parts.length !== 3) continue;
    const [hostname, enc, key] = parts as [string, string, string];
    const fp = fingerprint(key, hashType);
    if (fp) out.push({ hostname, key, enc, fingerprint: fp });
  }
  return out;
}

/** Salt's `_get_matched_host_line_numbers`: the file lines `ssh-keygen -F` found, of type `enc` when given. */
export function matchedLines(lines: readonly string[], enc: string | null | undefined): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) {
    const no = Number((lines[i] ?? '').trim().split(/\s+/).pop());
    const lineEnc = (lines[i + 1] ?? '').trim().split(/\s+/).at(-2);
    if (enc !== null && enc !== undefined && lineEnc !== enc) continue;
    out.push(no);
  }
  return out;
}

/** Runs `argv` as Salt's `cmd.run` with `python_shell=False` (stdout and stderr together). */
export async function runSsh(ctx: ExecContext, argv: string[], ignoreRetcode = false): Promise<string> {
  const kwargs: Record<string, unknown> = { python_shell: false };
  if (ignoreRetcode) kwargs.ignore_retcode = true;
  return String(await ctx.call('cmd.run', [argv], kwargs));
}
