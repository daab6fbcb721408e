/**
 * Salt's `ssh` execution module (`salt/modules/ssh.py`), its known_hosts functions: read the
 * entries of a host (`ssh-keygen -F`), fetch a host's keys (`ssh-keyscan`), check, add or
 * replace (by key, by fingerprint, or as the host offers them) and remove (`ssh-keygen -R`)
 * them, and hash the file (`ssh-keygen -H`). Answers, errors and file modes are Salt's.
 */
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import {
  authKeys,
  checkKey,
  configFile,
  noKeysError,
  rmAuthKey,
  setAuthKey,
  validateKeys,
} from './_ssh-auth.js';
import { keyFunctions } from './_ssh-keys.js';
import {
  DEFAULT_SSH_PORT,
  isSshError,
  type KnownHostEntry,
  knownHostsFile,
  matchedLines,
  needProgram,
  ownerOf,
  parseOpenssh,
  runSsh,
  type SshError,
  sshError,
  sshHostname,
} from './_ssh-known-hosts.js';
import { which } from './_which.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;
type Z = typeof import('zod').z;
const optStr = (z: Z) => z.string().nullish();
const port = (z: Z) => z.union([z.number(), z.string()]).nullish();
const hashType = (z: Z) => z.string().nullish();

async function getEntries(
  ctx: ExecContext,
  user: string | null | undefined,
  hostname: string,
  config: string | null | undefined,
  sshPort: unknown,
  fpType: string | null | undefined,
): Promise<KnownHostEntry[] | SshError | null> {
  needProgram('ssh-keygen');
  const full = await knownHostsFile(ctx, config, user);
  if (typeof full !== 'string') return full;
  const out = await runSsh(ctx, ['ssh-keygen', '-F', sshHostname(hostname, sshPort), '-f', full], true);
  const entries = parseOpenssh(out.split(/\r?\n/), fpType);
  return entries.length > 0 ? entries : null;
}

interface RecvArgs {
  enc?: string | null | undefined;
  port?: unknown;
  hash_known_hosts: unknown;
  timeout: unknown;
  fingerprint_hash_type?: string | null | undefined;
}

async function recvEntries(
  ctx: ExecContext,
  hostname: string,
  a: RecvArgs,
): Promise<KnownHostEntry[] | null> {
  needProgram('ssh-keyscan');
  const argv = ['ssh-keyscan'];
  if (a.port) argv.push('-p', String(a.port));
  if (a.enc) argv.push('-t', a.enc);
  if (pyTruthy(a.hash_known_hosts)) argv.push('-H');
  argv.push('-T', pyStr(a.timeout), hostname);
  let lines: string[] = [];
  for (let attempts = 5; lines.length === 0 && attempts > 0; attempts--) {
    const out = await runSsh(ctx, argv);
    lines = out === '' ? [] : out.split(/\r?\n/);
  }
  const entries = parseOpenssh(lines, a.fingerprint_hash_type);
  return entries.length > 0 ? entries : null;
}

async function hashKnownHosts(
  ctx: ExecContext,
  user: string | null | undefined,
  config: string | null | undefined,
) {
  needProgram('ssh-keygen');
  const full = await knownHostsFile(ctx, config, user);
  if (typeof full !== 'string') return full;
  if (!existsSync(full)) return sshError(`Known hosts file ${full} does not exist`);
  const mode = (await stat(full)).mode;
  const comment = await runSsh(ctx, ['ssh-keygen', '-H', '-f', full]);
  await chmod(full, mode);
  await chownAsRoot(ctx, full, user);
  return { status: 'updated', comment };
}

/** Salt's chown of a file ssh-keygen rewrote, when running as root for a user. */
async function chownAsRoot(ctx: ExecContext, file: string, user: string | null | undefined): Promise<void> {
  if (process.getuid?.() !== 0 || !user) return;
  const owner = await ownerOf(ctx, user);
  if (owner) await chown(file, owner.uid, owner.gid);
}

/** Drops the lines `ssh-keygen -F` found for the host (of type `enc` when given), in place. */
async function removeOld(ctx: ExecContext, full: string, hostname: string, sshPort: unknown, enc: unknown) {
  const out = await runSsh(ctx, ['ssh-keygen', '-F', sshHostname(hostname, sshPort), '-f', full], true);
  const remove = matchedLines(
    out === '' ? [] : out.split(/\r?\n/),
    enc === null || enc === undefined ? null : String(enc),
  );
  if (remove.length === 0) return;
  try {
    const lines = (await readFile(full, 'utf8')).split(/(?<=\n)/);
    for (const no of [...remove].sort((x, y) => y - x)) lines.splice(no - 1, 1);
    await writeFile(full, lines.join(''));
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(
      `Couldn't remove old entry(ies) from known hosts file: '${(err as Error).message}'`,
    );
  }
}

export default defineModule({
  name: 'ssh',
  doc: 'Manage client ssh components: the known_hosts entries of users and of the system.',
  virtual: () => (which('ssh') ? true : { ok: false, reason: 'The module requires the ssh binary.' }),
  functions: {
    ...keyFunctions,
    get_known_host_entries: defineFunction({
      args: (z) =>
        z.object({
          user: z.string().nullable(),
          hostname: z.string(),
          config: optStr(z),
          port: port(z),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Return information about known host entries from the configfile, if any.${cli('ssh.get_known_host_entries <user> <hostname>')}`,
      run: (ctx, a) => getEntries(ctx, a.user, a.hostname, a.config, a.port, a.fingerprint_hash_type),
    }),
    recv_known_host_entries: defineFunction({
      args: (z) =>
        z.object({
          hostname: z.string(),
          enc: optStr(z),
          port: port(z),
          hash_known_hosts: z.unknown().default(true),
          timeout: z.unknown().default(5),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Retrieve information about host public keys from remote server.${cli('ssh.recv_known_host_entries <hostname> enc=<enc> port=<port>')}`,
      run: (ctx, a) => recvEntries(ctx, a.hostname, a),
    }),
    check_known_host: defineFunction({
      args: (z) =>
        z.object({
          user: optStr(z),
          hostname: optStr(z),
          key: optStr(z),
          fingerprint: optStr(z),
          config: optStr(z),
          port: port(z),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Check the record in known_hosts file, either by its value or by fingerprint: "exists", "add" or "update".${cli("ssh.check_known_host <user> <hostname> key='AAAA...FAaQ=='")}`,
      run: async (ctx, a) => {
        if (!a.hostname) return sshError('hostname argument required');
        const config = a.config || (a.user ? '.ssh/known_hosts' : '/etc/ssh/ssh_known_hosts');
        const entries = await getEntries(ctx, a.user, a.hostname, config, a.port, a.fingerprint_hash_type);
        if (isSshError(entries)) return entries;
        if (!entries) return 'add';
        if (a.key) return entries.some((e) => e.key === a.key) ? 'exists' : 'update';
        if (a.fingerprint) return entries.some((e) => e.fingerprint === a.fingerprint) ? 'exists' : 'update';
        return 'exists';
      },
    }),
    rm_known_host: defineFunction({
      args: (z) => z.object({ user: optStr(z), hostname: optStr(z), config: optStr(z), port: port(z) }),
      doc: `Remove all keys belonging to hostname from a known_hosts file.${cli('ssh.rm_known_host <user> <hostname>')}`,
      run: async (ctx, a) => {
        if (!a.hostname) return sshError('hostname argument required');
        const full = await knownHostsFile(ctx, a.config, a.user);
        if (typeof full !== 'string') return full;
        if (!existsSync(full)) return sshError(`Known hosts file ${full} does not exist`);
        const comment = await runSsh(ctx, ['ssh-keygen', '-R', sshHostname(a.hostname, a.port), '-f', full]);
        await chownAsRoot(ctx, full, a.user);
        return { status: 'removed', comment };
      },
    }),
    set_known_host: defineFunction({
      args: (z) =>
        z.object({
          user: optStr(z),
          hostname: optStr(z),
          fingerprint: optStr(z),
          key: optStr(z),
          port: port(z),
          enc: optStr(z),
          config: optStr(z),
          hash_known_hosts: z.unknown().default(true),
          timeout: z.unknown().default(5),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Download SSH public key from remote host "hostname", optionally validate its fingerprint, and save the record in the known_hosts file.${cli("ssh.set_known_host <user> fingerprint='xx:xx:..:xx' enc='ssh-rsa' config='.ssh/known_hosts'")}`,
      run: (ctx, a) => setKnownHost(ctx, a as SetArgs),
    }),
    auth_keys: defineFunction({
      args: (z) =>
        z.object({
          user: z.union([z.string(), z.array(z.string())]).nullish(),
          config: z.string().default('.ssh/authorized_keys'),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Return the authorized keys for users (one user: its keys; a list or none: keys by user).${cli('ssh.auth_keys root')}`,
      run: async (ctx, a) => {
        if (typeof a.user === 'string') return authKeys(ctx, a.user, a.config, a.fingerprint_hash_type);
        const users = Array.isArray(a.user) ? a.user : ((await ctx.call('user.list_users')) as string[]);
        const ret: Record<string, unknown> = {};
        for (const u of users) {
          const full = await authFile(ctx, u, a.config);
          if (full) ret[u] = await validateKeys(full, a.fingerprint_hash_type);
        }
        return ret;
      },
    }),
    check_key: defineFunction({
      args: (z) =>
        z.object({
          user: z.string(),
          key: z.string(),
          enc: z.string(),
          comment: z.string(),
          options: z.array(z.string()),
          config: z.string().default('.ssh/authorized_keys'),
          cache_keys: z.unknown().optional(),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Check to see if a key needs updating, returns "update", "add" or "exists".${cli('ssh.check_key <user> <key> <enc> <comment> <options>')}`,
      run: (ctx, a) => checkKey(ctx, a),
    }),
    check_key_file: defineFunction({
      args: (z) => z.object({ user: z.string(), source: z.string(), ...fileArgs(z) }),
      doc: `Check a keyfile from a source destination against the local keys and return the keys to change.${cli('ssh.check_key_file root salt://ssh/keyfile')}`,
      run: async (ctx, a) => {
        const keys = await sourceKeys(ctx, a.source, a.saltenv, a.fingerprint_hash_type, false);
        const ret: Record<string, string> = {};
        for (const [key, k] of Object.entries(keys ?? {}))
          ret[key] = await checkKey(ctx, { ...a, key, enc: k.enc, comment: k.comment, options: k.options });
        return ret;
      },
    }),
    set_auth_key: defineFunction({
      args: (z) =>
        z.object({
          user: z.string(),
          key: z.string(),
          enc: z.string().default('ssh-rsa'),
          comment: z.string().default(''),
          options: z.array(z.string()).nullish(),
          config: z.string().default('.ssh/authorized_keys'),
          cache_keys: z.unknown().optional(),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Add a key to the authorized_keys file: "new", "replace", "no change", "fail" or "invalid".${cli("ssh.set_auth_key <user> '<key>' enc='dsa'")}`,
      run: (ctx, a) => setAuthKey(ctx, { ...a, options: a.options ?? [] }),
    }),
    set_auth_key_from_file: defineFunction({
      args: (z) =>
        z.object({
          user: z.string(),
          source: z.string(),
          ...fileArgs(z),
          options: z.array(z.string()).nullish(),
        }),
      varkw: true,
      doc: `Add a key to the authorized_keys file, using a file as the source.${cli('ssh.set_auth_key_from_file <user> salt://ssh_keys/<user>.id_rsa.pub')}`,
      run: async (ctx, a) => {
        const keys = await sourceKeys(ctx, a.source, a.saltenv, a.fingerprint_hash_type, true);
        if (!keys) return 'fail';
        let rval = '';
        for (const [key, k] of Object.entries(keys))
          rval += await setAuthKey(ctx, {
            ...a,
            key,
            enc: k.enc,
            comment: k.comment,
            options: a.options?.length ? a.options : k.options,
          });
        if (rval.includes('fail')) return 'fail';
        if (rval.includes('replace')) return 'replace';
        return rval.includes('new') ? 'new' : 'no change';
      },
    }),
    rm_auth_key: defineFunction({
      args: (z) =>
        z.object({
          user: z.string(),
          key: z.string(),
          config: z.string().default('.ssh/authorized_keys'),
          fingerprint_hash_type: hashType(z),
        }),
      doc: `Remove an authorized key from the specified user's authorized key file.${cli('ssh.rm_auth_key <user> <key>')}`,
      run: (ctx, a) => rmAuthKey(ctx, a.user, a.key, a.config, a.fingerprint_hash_type),
    }),
    rm_auth_key_from_file: defineFunction({
      args: (z) => z.object({ user: z.string(), source: z.string(), ...fileArgs(z) }),
      doc: `Remove an authorized key from the specified user's authorized key file, using a file as source.${cli('ssh.rm_auth_key_from_file <user> salt://ssh_keys/<user>.id_rsa.pub')}`,
      run: async (ctx, a) => {
        const keys = await sourceKeys(ctx, a.source, a.saltenv, a.fingerprint_hash_type, true);
        if (!keys) return 'fail';
        let rval = '';
        for (const key of Object.keys(keys))
          rval += await rmAuthKey(ctx, a.user, key, a.config, a.fingerprint_hash_type);
        if (rval.includes('Key not removed')) return 'Key not removed';
        return rval.includes('Key removed') ? 'Key removed' : 'Key not present';
      },
    }),
    hash_known_hosts: defineFunction({
      args: (z) => z.object({ user: optStr(z), config: optStr(z) }),
      doc: `Hash all the hostnames in the known hosts file.${cli('ssh.hash_known_hosts')}`,
      run: (ctx, a) => hashKnownHosts(ctx, a.user, a.config),
    }),
  },
});

const fileArgs = (z: Z) => ({
  config: z.string().default('.ssh/authorized_keys'),
  saltenv: z.string().default('base'),
  fingerprint_hash_type: hashType(z),
});

/** The authorized_keys file of `user` when it exists (Salt's `auth_keys` skips the others). */
async function authFile(ctx: ExecContext, user: string, config: string): Promise<string | undefined> {
  try {
    const full = await configFile(ctx, user, config);
    return existsSync(full) && (await stat(full)).isFile() ? full : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The keys of a key file (`salt://` or local) through `cp.cache_file`; undefined (logged) when
 * it has none. `required`: a file that cannot be fetched is an error, else it has no keys.
 */
async function sourceKeys(
  ctx: ExecContext,
  source: string,
  saltenv: string,
  hashType: string | null | undefined,
  required: boolean,
) {
  const local = (await ctx.call('cp.cache_file', [source, saltenv])) as string | false;
  if (!local || !existsSync(local)) {
    if (required) throw new SALT_ERR_EXEC_COMMAND('Failed to pull key file from salt file server');
    return undefined;
  }
  const keys = await validateKeys(local, hashType);
  if (Object.keys(keys).length > 0) return keys;
  ctx.log.error(noKeysError(source));
  return undefined;
}

interface SetArgs extends RecvArgs {
  user?: string | null;
  hostname?: string | null;
  fingerprint?: string | null;
  key?: string | null;
  config?: string | null;
}

/** Salt's `set_known_host`. */
async function setKnownHost(ctx: ExecContext, a: SetArgs): Promise<unknown> {
  const hostname = a.hostname;
  if (!hostname) return sshError('hostname argument required');
  if (a.port !== null && a.port !== undefined && a.port !== DEFAULT_SSH_PORT && pyTruthy(a.hash_known_hosts))
    return sshError('argument port can not be used in conjunction with argument hash_known_hosts');
  const stored = await getEntries(ctx, a.user, hostname, a.config, a.port, a.fingerprint_hash_type);
  if (isSshError(stored)) return stored;
  const storedKeys = (stored ?? [])
    .filter((h) => a.enc === null || a.enc === undefined || h.enc === a.enc)
    .map((h) => h.key);
  const storedFps = (stored ?? []).map((h) => h.fingerprint);
  let update = false;
  let check = false;
  if (!stored) update = true;
  else if (a.fingerprint && !storedFps.includes(a.fingerprint)) update = true;
  else if (a.key && !storedKeys.includes(a.key)) update = true;
  else if (!a.key && !a.fingerprint) check = true;
  if (!update && !check) return { status: 'exists', keys: storedKeys };
  let entries: KnownHostEntry[] = [];
  if (!a.key) {
    const remote = await recvEntries(ctx, hostname, a);
    if (!remote) return sshError('Unable to receive remote host keys');
    if (a.fingerprint && !remote.some((h) => h.fingerprint === a.fingerprint))
      return sshError(
        'Remote host public keys found but none of their fingerprints match the one you have provided',
      );
    const remoteKeys = new Set(remote.map((h) => h.key));
    if (check && remoteKeys.size === new Set(storedKeys).size && storedKeys.every((k) => remoteKeys.has(k)))
      return { status: 'exists', keys: storedKeys };
    entries = remote;
  }
  const full = await knownHostsFile(ctx, a.config, a.user);
  if (typeof full !== 'string') return full;
  let origMode: number | undefined;
  if (existsSync(full)) {
    origMode = (await stat(full)).mode;
    await removeOld(ctx, full, hostname, a.port, a.enc);
  }
  if (a.key) entries = [{ hostname, enc: a.enc ?? null, key: a.key }];
  const lines = entries.map((e) => {
    if (
      pyTruthy(a.hash_known_hosts) ||
      a.port === null ||
      a.port === undefined ||
      Number(a.port) === DEFAULT_SSH_PORT ||
      e.hostname.includes(':')
    )
      return `${e.hostname} ${pyStr(e.enc)} ${e.key}\n`;
    e.port = a.port;
    return `[${e.hostname}]:${String(a.port)} ${pyStr(e.enc)} ${e.key}\n`;
  });
  const dir = path.dirname(full);
  if (!existsSync(dir)) {
    await mkdir(dir, { recursive: true });
    const owner = a.user ? await ownerOf(ctx, a.user) : undefined;
    if (owner) {
      await chown(dir, owner.uid, owner.gid);
      await chmod(dir, 0o700);
    }
  }
  try {
    await writeFile(full, lines.join(''), { flag: 'a' });
  } catch (err) {
    throw new SALT_ERR_EXEC_COMMAND(`Couldn't append to known hosts file: '${(err as Error).message}'`);
  }
  await chownAsRoot(ctx, full, a.user);
  await chmod(full, origMode ?? 0o600);
  if (a.key && pyTruthy(a.hash_known_hosts)) await hashKnownHosts(ctx, a.user, full);
  return { status: 'updated', old: stored, new: entries };
}
