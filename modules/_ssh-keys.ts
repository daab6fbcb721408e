/**
 * The key-file functions of Salt's `ssh` module: the minion's host keys (`host_keys`), users'
 * own key pairs under `~/.ssh` (`user_keys`), and whether a private key file is
 * passphrase-protected (`key_is_encrypted`). Merged into `modules/ssh.ts`.
 */
import { existsSync } from 'node:fs';
import { open, opendir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { pyOsError, pyStrerror } from './_py-oserror.js';
import { needProgram } from './_ssh-known-hosts.js';

const cli = (example: string) => `\n\nCLI Example:\n\n    salt '*' ${example}`;

/** `ssh_host_<type>_key`, its `.pub`, and its `-cert.pub`; matched at the start of a name only. */
const HOST_KEY_RE = /^ssh_host_(.+)_key((-cert)?\.pub)?/;
const LEGACY_FIRST_LINE = 'SSH PRIVATE KEY FILE FORMAT 1.1\n';

/** Python's `str.strip()` for the whitespace a key file holds (spaces, tabs, newlines). */
const pyStrip = (s: string) => s.trim();

/** A host key file's text: its first line only in the legacy binary format, else all of it, stripped. */
async function readHostKey(file: string): Promise<string> {
  try {
    const fh = await open(file, 'r');
    try {
      const text = (await fh.readFile()).toString('utf8');
      const nl = text.indexOf('\n');
      const first = nl < 0 ? text : text.slice(0, nl + 1);
      return pyStrip(first === LEGACY_FIRST_LINE ? first : text);
    } finally {
      await fh.close();
    }
  } catch {
    return '';
  }
}

/** Salt's `process_read_exception` for one file. */
function readError(err: unknown, file: string): Error {
  const e = err as NodeJS.ErrnoException;
  if (e.code === 'ENOENT') return new SALT_ERR_EXEC_COMMAND(`${file} does not exist`);
  if (e.code === 'EACCES') return new SALT_ERR_EXEC_COMMAND(`Permission denied reading from ${file}`);
  const py = pyStrerror(err);
  return new SALT_ERR_EXEC_COMMAND(
    `Error ${py?.errno ?? Math.abs(e.errno ?? 0)} encountered reading from ${file}: ${py?.strerror ?? e.message}`,
  );
}

const DEFAULT_PUB = ['id_rsa.pub', 'id_dsa.pub', 'id_ecdsa.pub', 'id_ed25519.pub'];
const DEFAULT_PRV = ['id_rsa', 'id_dsa', 'id_ecdsa', 'id_ed25519'];

/** The key files `user_keys` reads: the one given, none for False, else the usual names. */
function keyNames(given: unknown, defaults: string[]): string[] {
  if (given !== undefined && given !== null && given !== false && given !== '' && given !== 0)
    return [String(given)];
  return given === false ? [] : defaults;
}

async function oneUserKeys(ctx: ExecContext, user: string, names: string[]): Promise<Record<string, string>> {
  const info = (await ctx.call('user.info', [user])) as { home?: string } | null;
  const keys: Record<string, string> = {};
  if (!info || typeof info !== 'object' || !('home' in info)) return keys;
  for (const key of names) {
    const abs = key.startsWith('/');
    const file = abs ? key : `${info.home}/.ssh/${key}`;
    if (!existsSync(file)) continue;
    try {
      keys[abs ? path.posix.basename(key) : key] = pyStrip(await readFile(file, 'utf8'));
    } catch {
      // unreadable: left out, as Salt does
    }
  }
  return keys;
}

export const keyFunctions = {
  host_keys: defineFunction({
    args: (z) =>
      z.object({
        keydir: z.string().nullish(),
        private: z.unknown().default(true),
        certs: z.unknown().default(true),
      }),
    doc: `Return the minion's host keys (private=False: public keys only; certs=False: no certificates).${cli('ssh.host_keys keydir=/etc/ssh private=False')}`,
    run: async (ctx, a) => {
      let keydir = a.keydir;
      if (!keydir) {
        if (ctx.grains.kernel !== 'Linux')
          throw new SALT_ERR_INVOCATION('ssh.host_keys: Please specify a keydir');
        keydir = '/etc/ssh';
      }
      const names: string[] = [];
      try {
        // the directory's own order, as Python's os.listdir (fs.readdir sorts)
        for await (const d of await opendir(keydir)) names.push(d.name);
      } catch (err) {
        // Salt lets the OSError escape; here it is a clean error with Python's text
        throw new SALT_ERR_EXEC_COMMAND(pyOsError(err, keydir));
      }
      const keys: Record<string, string> = {};
      for (const name of names) {
        const m = HOST_KEY_RE.exec(name);
        if (!m) continue;
        if (!m[2] && a.private === false) {
          ctx.log.info(`Skipping private key file ${name} as private is set to False`);
          continue;
        }
        if (m[3] && a.certs === false) {
          ctx.log.info(`Skipping key file ${name} as certs is set to False`);
          continue;
        }
        keys[`${m[1]}${m[2] ?? ''}`] = await readHostKey(path.join(keydir, name));
      }
      return keys;
    },
  }),
  user_keys: defineFunction({
    args: (z) =>
      z.object({
        user: z.union([z.string(), z.array(z.string())]).nullish(),
        pubfile: z.unknown().optional(),
        prvfile: z.unknown().optional(),
      }),
    doc: `Return the users' ssh key pairs from ~/.ssh (pubfile/prvfile: other files, or False to skip them).${cli('ssh.user_keys user=user1 prvfile=False')}`,
    run: async (ctx, a) => {
      const users = a.user ? a.user : ((await ctx.call('user.list_users')) as string[]);
      const names = [...keyNames(a.pubfile, DEFAULT_PUB), ...keyNames(a.prvfile, DEFAULT_PRV)];
      const ret: Record<string, Record<string, string>> = {};
      for (const u of Array.isArray(users) ? users : [users]) {
        const keys = await oneUserKeys(ctx, u, names);
        if (Object.keys(keys).length > 0) ret[u] = keys;
      }
      return ret;
    },
  }),
  key_is_encrypted: defineFunction({
    args: (z) => z.object({ key: z.string() }),
    doc: `Whether a private key file is encrypted with a passphrase (its text says ENCRYPTED).${cli('ssh.key_is_encrypted /root/id_rsa')}`,
    run: async (_ctx, a) => {
      needProgram('ssh-keygen');
      let text: string;
      try {
        text = await readFile(a.key, 'utf8');
      } catch (err) {
        throw readError(err, a.key);
      }
      if (!/BEGIN (?:\w+\s)*PRIVATE KEY/.test(text))
        throw new SALT_ERR_EXEC_COMMAND(`${a.key} is not a private key`);
      return text.includes('ENCRYPTED');
    },
  }),
};
