/**
 * apt's repository keys for the apt backend (Salt's `aptpkg.get_repo_keys`, `add_repo_key`,
 * `del_repo_key` and the key half of `mod_repo`): through `apt-key` (the trusted.gpg keyring)
 * or, with `aptkey=False` or where apt-key is gone, as key files in a keyring folder
 * (`/etc/apt/keyrings` unless `keydir` says otherwise) read and filled by `gpg`.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { callApt } from './_pkg-apt-call.js';
import { execCommand } from './_pkg-exec.js';
import { which } from './_which.js';

/** The default keyring folder for `aptkey=False` (a test points it elsewhere). */
export const keyrings = { dir: '/etc/apt/keyrings' };

/** One key as Salt lists it. */
export type RepoKey = Record<string, unknown>;

/** Salt's `_convert_if_int`: a field that reads as an integer becomes one. */
function field(raw: string | undefined): string | number | null {
  const s = (raw ?? '').trim();
  if (!s) return null;
  if (/^[+-]?\d+$/.test(s)) {
    const n = Number(s);
    if (Number.isSafeInteger(n)) return n;
  }
  return s;
}

/** Salt's `_parse_repo_keys_output`: gpg's colon listing → `{keyid: details}`. */
export function parseKeys(out: string): Record<string, RepoKey> {
  const keys: RepoKey[] = [];
  for (const line of out.split(/\r?\n/).filter((l) => l.trim())) {
    const items = line.split(':').map(field);
    if (items.length < 2) continue;
    const last = keys[keys.length - 1];
    if (items[0] === 'pub' || items[0] === 'sub') {
      const props: RepoKey = {
        algorithm: items[3] ?? null,
        bits: items[2] ?? null,
        capability: items[11] ?? null,
        date_creation: items[5] ?? null,
        date_expiration: items[6] ?? null,
        keyid: pyStr(items[4] ?? null),
        validity: items[1] ?? null,
      };
      if (items[0] === 'pub') keys.push(props);
      else if (last) last.subkey = props;
    } else if (items[0] === 'fpr' && last) {
      const target = (last.subkey as RepoKey | undefined) ?? last;
      target.fingerprint = items[9] ?? null;
    } else if (items[0] === 'uid' && last) {
      last.uid = items[9] ?? null;
      last.uid_hash = items[7] ?? null;
    }
  }
  const ret: Record<string, RepoKey> = {};
  for (const k of keys) ret[pyStr(k.keyid)] = k;
  return ret;
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/** The colon listing of one keyring file. */
async function listKeyring(file: string): Promise<string> {
  const r = await execCommand([
    'gpg',
    '--no-default-keyring',
    '--keyring',
    file,
    '--list-keys',
    '--with-colons',
  ]);
  return r.stdout;
}

/** Whether to use apt-key: asked for and installed. */
export const useAptKey = (aptkey: boolean): boolean => aptkey && which('apt-key') !== null;

/** Salt's `pkg.get_repo_keys`: the keys apt trusts, or False when the keyring folder is missing. */
export async function getRepoKeys(
  ctx: ExecContext,
  aptkey = true,
  keydir?: string,
): Promise<Record<string, RepoKey> | false> {
  if (!useAptKey(aptkey)) {
    const dir = keydir ?? keyrings.dir;
    if (!isDir(dir)) {
      ctx.log.error(
        `The directory ${dir} does not exist. Please create this directory only writable by root`,
      );
      return false;
    }
    const outs: string[] = [];
    for (const f of readdirSync(dir)) outs.push(await listKeyring(path.join(dir, f)));
    return parseKeys(outs.join(' '));
  }
  const r = await callApt(ctx, [
    'apt-key',
    'adv',
    '--batch',
    '--list-public-keys',
    '--with-fingerprint',
    '--with-fingerprint',
    '--with-colons',
    '--fixed-list-mode',
  ]);
  if (r.retcode !== 0) {
    ctx.log.error(r.stderr);
    return {};
  }
  return parseKeys(r.stdout);
}

/** Salt's `_decrypt_key`: an ASCII-armored key is dearmored beside itself (`<file>.decrypted`). */
async function dearmor(ctx: ExecContext, file: string): Promise<string | false> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch {
    return file;
  }
  if (!text.replace(/^-+|-+$/g, '').startsWith('BEGIN PGP')) return file;
  if (which('gpg') === null) {
    ctx.log.error(
      `Detected an ASCII armored key ${file} and the gpg binary is not available. Not decrypting the key.`,
    );
    return false;
  }
  const out = `${file}.decrypted`;
  const r = await execCommand(['gpg', '--yes', '--output', out, '--dearmor', file]);
  if (r.retcode !== 0) ctx.log.error(`Failed to decrypt the key ${file}`);
  return out;
}

/**
 * Salt's check before a key is added or removed: without apt-key (`aptkey=False`) the keyring
 * folder must exist, else the error is logged and the answer is null (the caller returns False).
 * Otherwise whether apt-key does the work (asked for, and installed).
 */
function keyChangeMode(ctx: ExecContext, aptkey: boolean, keydir: string): boolean | null {
  if (!aptkey && !isDir(keydir)) {
    ctx.log.error(
      `The directory ${keydir} does not exist. Please create this directory only writable by root`,
    );
    return null;
  }
  return useAptKey(aptkey);
}

/** What `pkg.add_repo_key` takes. */
export interface AddKeyArgs {
  path?: string | undefined;
  text?: string | undefined;
  keyserver?: string | undefined;
  keyid?: string | undefined;
  saltenv?: string | undefined;
  aptkey?: boolean | undefined;
  keydir?: string | undefined;
  keyfile?: string | undefined;
}

/** Salt's `pkg.add_repo_key`: true when the key is there afterwards. */
export async function addRepoKey(ctx: ExecContext, a: AddKeyArgs): Promise<boolean> {
  const keydir = a.keydir ?? keyrings.dir;
  const aptkey = keyChangeMode(ctx, a.aptkey ?? true, keydir);
  if (aptkey === null) return false;
  if (a.keyid) {
    const have = await getRepoKeys(ctx, aptkey, keydir);
    for (const id of Object.keys(have || {})) if (id.endsWith(a.keyid)) return true;
  }
  let argv: string[];
  let stdin: string | undefined;
  if (a.path) {
    const cached = await ctx.call('cp.cache_file', [a.path, a.saltenv ?? 'base']);
    if (typeof cached !== 'string' || !cached) {
      ctx.log.error(`Unable to get cached copy of file: ${a.path}`);
      return false;
    }
    if (!aptkey) {
      const key = await dearmor(ctx, cached);
      if (!key) return false;
      const name = a.keyfile ?? path.basename(key).replace(/\.decrypted$/, '');
      copyFileSync(key, path.resolve(keydir, name));
      return true;
    }
    argv = ['apt-key', 'add', cached];
  } else if (a.text) {
    argv = ['apt-key', 'add', '-'];
    stdin = a.text;
  } else if (a.keyserver) {
    if (!a.keyid) throw new SALT_ERR_INVOCATION(`No keyid or keyid too short for keyserver: ${a.keyserver}`);
    if (!aptkey) {
      if (!a.keyfile) {
        ctx.log.error('You must define the name of the key file to save the key. See keyfile argument');
        return false;
      }
      argv = ['gpg', '--no-default-keyring', '--keyring', path.resolve(keydir, a.keyfile)];
      argv.push('--keyserver', a.keyserver, '--recv-keys', a.keyid);
    } else argv = ['apt-key', 'adv', '--batch', '--keyserver', a.keyserver, '--recv', a.keyid];
  } else if (a.keyid) throw new SALT_ERR_INVOCATION(`No keyserver specified for keyid: ${a.keyid}`);
  else throw new SALT_ERR_INVOCATION('add_repo_key() takes at least 1 argument (0 given)');
  const r = await callApt(ctx, argv, stdin === undefined ? {} : { stdin });
  if (r.retcode === 0) return true;
  ctx.log.error(`Unable to add repo key: ${r.stderr}`);
  return false;
}

/** Salt's `_get_key_from_id`: the keyring file holding a key. */
async function keyFileOf(ctx: ExecContext, keydir: string, keyid: string): Promise<string | false> {
  if (keyid.length !== 8 && keyid.length !== 16) {
    ctx.log.error('The keyid needs to be either 8 or 16 characters');
    return false;
  }
  for (const f of readdirSync(keydir)) {
    const file = path.join(keydir, f);
    const keys = parseKeys(await listKeyring(file));
    if (Object.values(keys).some((k) => pyStr(k.keyid).endsWith(keyid))) return file;
  }
  ctx.log.error(`Could not find the key file for keyid: ${keyid}`);
  return false;
}

/** Salt's `pkg.del_repo_key`: the removed keyid, or False. */
export async function delRepoKey(
  ctx: ExecContext,
  name: string | undefined,
  kwargs: Readonly<Record<string, unknown>>,
): Promise<string | false> {
  const keydir = typeof kwargs.keydir === 'string' ? kwargs.keydir : keyrings.dir;
  const aptkey = keyChangeMode(ctx, kwargs.aptkey === undefined ? true : Boolean(kwargs.aptkey), keydir);
  if (aptkey === null) return false;
  if (kwargs.keyid_ppa) {
    if (typeof name === 'string' && name.startsWith('ppa:'))
      throw new SALT_ERR_EXEC_COMMAND('keyid_ppa needs launchpad.net, which tsalt does not query');
    throw new SALT_ERR_INVOCATION('keyid_ppa requires that a PPA be passed');
  }
  if (!('keyid' in kwargs)) throw new SALT_ERR_INVOCATION('keyid or keyid_ppa and PPA name must be passed');
  const keyid = pyStr(kwargs.keyid);
  if (!aptkey) {
    const file = await keyFileOf(ctx, keydir, keyid);
    if (!file) return false;
    rmSync(file, { force: true });
    return keyid;
  }
  const r = await callApt(ctx, ['apt-key', 'del', keyid]);
  if (r.retcode !== 0)
    throw new SALT_ERR_EXEC_COMMAND(`Failed to remove keyid ${keyid}${r.stderr ? `: ${r.stderr}` : ''}`);
  return keyid;
}
