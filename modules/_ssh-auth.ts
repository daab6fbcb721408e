/**
 * The authorized_keys functions of Salt's `ssh` module (`salt/modules/ssh.py`): read a user's
 * keys with their options, comment and fingerprint; check, add, replace and remove one; the same
 * from a key file (`salt://` or local). The file is `config` (`%h`, `%u` expanded) under the
 * user's home unless absolute; a new file is mode 600 in a mode-700 directory, owned by the user.
 */
import { createHash, getHashes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { appendFile, chmod, chown, mkdir, open, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

export interface AuthKey {
  enc: string;
  comment: string;
  options: string[];
  fingerprint: string;
}

const RSA = ['r', 'rsa', 'ssh-rsa'];
const DSS = ['d', 'dsa', 'dss', 'ssh-dss'];
const ECDSA = ['e', 'ecdsa', 'ecdsa-sha2-nistp521', 'ecdsa-sha2-nistp384', 'ecdsa-sha2-nistp256'];
const ALSO = [
  'rsa-sha2-512',
  'rsa-sha2-256',
  'rsa-sha2-512-cert-v01@openssh.com',
  'rsa-sha2-256-cert-v01@openssh.com',
  'ssh-rsa-cert-v01@openssh.com',
  'ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'ecdsa-sha2-nistp384-cert-v01@openssh.com',
  'ecdsa-sha2-nistp521-cert-v01@openssh.com',
  'sk-ecdsa-sha2-nistp256@openssh.com',
  'sk-ecdsa-sha2-nistp256-cert-v01@openssh.com',
  'ssh-ed25519-cert-v01@openssh.com',
  'sk-ssh-ed25519@openssh.com',
  'sk-ssh-ed25519-cert-v01@openssh.com',
];

/** Salt's `_refine_enc`: the key type as it is written in the file. */
export function refineEnc(enc: string): string {
  if (RSA.includes(enc)) return 'ssh-rsa';
  if (DSS.includes(enc)) return 'ssh-dss';
  if (ECDSA.includes(enc)) return enc === 'e' || enc === 'ecdsa' ? 'ecdsa-sha2-nistp256' : enc;
  if (enc === 'ed25519' || enc === 'ssh-ed25519') return 'ssh-ed25519';
  if (ALSO.includes(enc)) return enc;
  throw new SALT_ERR_EXEC_COMMAND(`Incorrect encryption key type '${enc}'.`);
}

export const formatAuthLine = (key: string, enc: string, comment: string, options: readonly string[]) =>
  `${options.length ? `${options.join(',')} ` : ''}${enc} ${key} ${comment}\n`;

/** Salt's `_fingerprint`: colon-separated hex of the hash of the decoded key, or null when not base64. */
export function fingerprint(key: string, hashType: string | null | undefined): string | null {
  const type = (hashType || 'sha256').toLowerCase();
  if (!getHashes().includes(type))
    throw new SALT_ERR_EXEC_COMMAND(`The fingerprint_hash_type ${type} is not supported.`);
  if (key.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(key)) return null;
  const hex = createHash(type).update(Buffer.from(key, 'base64')).digest('hex');
  return hex.match(/../g)!.join(':');
}

export const noKeysError = (source: string) => `No keys detected in ${source}. Is file properly formatted?`;

/** The `{options} {enc} {key} [comment]` of an authorized_keys line. */
export const KEY_LINE = /^(.*?)\s?((?:sk-)?(?:ssh-|ecds)[\w@.-]+\s.+)$/;

/** Python's `str.split()`. */
export const pyWords = (s: string) => s.split(/\s+/).filter((w) => w !== '');

/** Salt's `_validate_keys`: key → its enc, comment, options and fingerprint. */
export async function validateKeys(
  file: string,
  hashType: string | null | undefined,
): Promise<Record<string, AuthKey>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new SALT_ERR_EXEC_COMMAND(`Problem reading ssh key file ${file}`);
  }
  const ret: Record<string, AuthKey> = {};
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = line.match(KEY_LINE);
    if (!m) continue;
    const comps = pyWords(m[2]!);
    if (comps.length < 2) continue;
    const fp = fingerprint(comps[1]!, hashType);
    if (fp === null) continue;
    ret[comps[1]!] = {
      enc: comps[0]!,
      comment: comps.slice(2).join(' '),
      options: m[1] ? m[1].split(',') : [],
      fingerprint: fp,
    };
  }
  return ret;
}

interface UserInfo {
  home: string;
  uid: number;
  gid: number;
}

export async function userInfo(ctx: ExecContext, user: string): Promise<UserInfo | undefined> {
  const info = (await ctx.call('user.info', [user]).catch(() => ({}))) as Partial<UserInfo> | undefined;
  return info && typeof info.home === 'string' ? (info as UserInfo) : undefined;
}

/** Salt's `_expand_authorized_keys_path` (`%h`, `%u`, `%%`). */
function expandPath(p: string, user: string, home: string): string {
  let out = '';
  let afterPercent = false;
  for (const ch of p) {
    if (afterPercent) {
      afterPercent = false;
      if (ch === '%') out += '%';
      else if (ch === 'u') out += user;
      else if (ch === 'h') out += home;
      else throw new SALT_ERR_EXEC_COMMAND(`AuthorizedKeysFile path: unknown token character "%${ch}"`);
    } else if (ch === '%') afterPercent = true;
    else out += ch;
  }
  if (afterPercent)
    throw new SALT_ERR_EXEC_COMMAND("AuthorizedKeysFile path: Last character can't be escape character");
  return out;
}

/** Salt's `_get_config_file`: the absolute authorized_keys path of `user`. */
export async function configFile(ctx: ExecContext, user: string, config: string): Promise<string> {
  const info = await userInfo(ctx, user);
  if (!info) throw new SALT_ERR_EXEC_COMMAND(`User '${user}' does not exist`);
  const full = expandPath(config, user, info.home);
  return path.isAbsolute(full) ? full : path.join(info.home, full);
}

/** Salt's `auth_keys` for one user: `{}` when the user or the file does not exist. */
export async function authKeys(
  ctx: ExecContext,
  user: string,
  config: string,
  hashType: string | null | undefined,
): Promise<Record<string, AuthKey>> {
  let full: string;
  try {
    full = await configFile(ctx, user, config);
  } catch {
    return {};
  }
  return existsSync(full) && statSync(full).isFile() ? validateKeys(full, hashType) : {};
}

export interface KeyArgs {
  user: string;
  key: string;
  enc: string;
  comment: string;
  options: readonly string[];
  config: string;
  fingerprint_hash_type?: string | null | undefined;
}

/** Salt's `check_key`: "add", "update" or "exists". */
export async function checkKey(ctx: ExecContext, a: KeyArgs): Promise<'add' | 'update' | 'exists'> {
  const enc = refineEnc(a.enc);
  const current = await authKeys(ctx, a.user, a.config, a.fingerprint_hash_type);
  const cur = current[a.key];
  if (!cur) return 'add';
  return formatAuthLine(a.key, cur.enc, cur.comment, cur.options) !==
    formatAuthLine(a.key, enc, a.comment, a.options)
    ? 'update'
    : 'exists';
}

const REPLACE_LINE = /((.*)\s)?((?:sk-)?(?:ssh|ecdsa)-[a-z0-9@.-]+)\s([a-zA-Z0-9+/]+={0,2})(\s(.*))?/;

async function replaceKey(ctx: ExecContext, a: KeyArgs & { enc: string }): Promise<void> {
  const authLine = formatAuthLine(a.key, a.enc, a.comment, a.options);
  const full = await configFile(ctx, a.user, a.config);
  try {
    const out: string[] = [];
    for (const raw of (await readFile(full, 'utf8')).split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      const m = line.startsWith('#') ? null : line.match(REPLACE_LINE);
      out.push(m && m[4] === a.key ? authLine : `${line}\n`);
    }
    await writeFile(full, out.join(''));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`Problem reading or writing to key file: ${(err as Error).message}`);
  }
}

/** Salt's `set_auth_key`: "new", "replace", "no change", "fail", "invalid" or "Invalid public key". */
export async function setAuthKey(ctx: ExecContext, a: KeyArgs): Promise<string> {
  if (pyWords(a.key).length > 1) return 'invalid';
  const enc = refineEnc(a.enc);
  const info = await userInfo(ctx, a.user);
  if (!info) return 'fail';
  if (fingerprint(a.key, a.fingerprint_hash_type) === null) return 'Invalid public key';
  const status = await checkKey(ctx, { ...a, enc });
  if (status === 'update') {
    await replaceKey(ctx, { ...a, enc });
    return 'replace';
  }
  if (status === 'exists') return 'no change';
  const full = await configFile(ctx, a.user, a.config);
  if (full.startsWith(info.home) && !existsSync(info.home)) return 'fail';
  const dir = path.dirname(full);
  const root = process.getuid?.() === 0;
  if (!existsSync(dir)) {
    await mkdir(dir, { recursive: true });
    if (root) await chown(dir, info.uid, info.gid);
    await chmod(dir, 0o700);
  }
  const isNew = !existsSync(full);
  try {
    let prefix = '';
    if (!isNew) {
      const fh = await open(full, 'r');
      try {
        const size = (await fh.stat()).size;
        if (size > 0) {
          const last = Buffer.alloc(1);
          await fh.read(last, 0, 1, size - 1);
          if (last.toString() !== '\n') prefix = '\n';
        }
      } finally {
        await fh.close();
      }
    }
    await appendFile(full, prefix + formatAuthLine(a.key, enc, a.comment, a.options));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`Could not write to key file: ${(err as Error).message}`);
  }
  if (isNew) {
    if (root) await chown(full, info.uid, info.gid);
    await chmod(full, 0o600);
  }
  return 'new';
}

/** Salt's `rm_auth_key`: "Key removed", "Key not present" or "Key not removed". */
export async function rmAuthKey(
  ctx: ExecContext,
  user: string,
  key: string,
  config: string,
  hashType: string | null | undefined,
): Promise<string> {
  const current = await authKeys(ctx, user, config, hashType);
  if (!Object.hasOwn(current, key)) return 'Key not present';
  const full = await configFile(ctx, user, config);
  try {
    const out: string[] = [];
    for (const raw of (await readFile(full, 'utf8')).split('\n')) {
      const line = raw.trim();
      if (line === '') continue;
      if (line.startsWith('#')) {
        out.push(`${line}\n`);
        continue;
      }
      const m = line.match(KEY_LINE);
      if (!m) continue;
      const comps = pyWords(m[2]!);
      if (comps.length >= 2 && comps[1] === key) continue;
      out.push(`${line}\n`);
    }
    await writeFile(full, out.join(''));
  } catch (err) {
    ctx.log.warn(`Could not read/write key file: ${(err as Error).message}`);
    return 'Key not removed';
  }
  return 'Key removed';
}
