/**
 * Salt's `shadow` execution module on Linux (`salt/modules/linux_shadow.py`): read
 * `/etc/shadow`, set password hashes (in the file, or with use_usermod through usermod -p), ageing (chage), locks (passwd -l/-u), and
 * make crypt(3) hashes (`openssl passwd`, the password on its stdin).
 */
import { randomBytes } from 'node:crypto';
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { passwdByName, runTool, shadowAll } from './_passwd-db.js';

type Root = string | null | undefined;
type Info = Record<string, string | number>;

const EMPTY: Info = { name: '', passwd: '', lstchg: '', min: '', max: '', warn: '', inact: '', expire: '' };

/** Salt's `shadow.info`: the user's shadow entry, every field '' when there is none. */
export async function shadowInfo(name: string, root?: Root): Promise<Info> {
  const e = (await shadowAll(root)).find((s) => s.name === name);
  return e ? { ...e } : { ...EMPTY };
}

const rootArgs = (root: Root): string[] => (root ? ['-R', root] : []);

/** Salt's `_set_attrib`: chage <param> <value> unless already so. */
async function setAttrib(
  ctx: ExecContext,
  name: string,
  key: string,
  value: unknown,
  param: string,
  root: Root,
  validate = true,
): Promise<boolean> {
  const pre = await shadowInfo(name, root);
  if (!pre.name) return false;
  if (value === pre[key]) return true;
  const res = await runTool(ctx, ['chage', ...rootArgs(root), param, String(value), name]);
  if (!validate) return res.retcode === 0;
  return (await shadowInfo(name, root))[key] === value;
}

const ALGOS: Record<string, string> = { md5: '-1', sha256: '-5', sha512: '-6' };
const SALT_CHARS = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A crypt(3) hash of `password` (Salt's `gen_hash`); a random 16-character salt when none is given. */
export async function genPassword(
  ctx: ExecContext,
  password: string,
  cryptSalt: string | null | undefined,
  algorithm: string,
): Promise<string> {
  const flag = ALGOS[algorithm];
  if (!flag) throw new SALT_ERR_EXEC_COMMAND(`Algorithm '${algorithm}' is not supported`);
  const salt = cryptSalt ?? [...randomBytes(16)].map((b) => SALT_CHARS[b % 64]).join('');
  const res = await runTool(ctx, ['openssl', 'passwd', flag, '-salt', salt, '-stdin'], password);
  if (res.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`gen_password failed: ${res.stderr}`);
  return res.stdout.trim();
}

/**
 * Salt's default `set_password` path: the hash written into the shadow file itself (no hash on a
 * command line), the entry completed to 9 fields, or appended when the user has none. `false`
 * when there is no shadow file.
 */
async function writeShadowHash(name: string, password: string, root: Root, alt: boolean): Promise<boolean> {
  let file = alt ? `/etc/tcb/${name}/shadow` : '/etc/shadow';
  if (root) file = join(root, file.slice(1));
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false;
  }
  const lstchg = String(Math.floor(Date.now() / 86_400_000));
  let found = false;
  const lines = text.split(/(?<=\n)/).map((line) => {
    const comps = line.trim().split(':').slice(0, 9);
    if (comps[0] !== name) return line;
    found = true;
    while (comps.length < 9) comps.push('');
    comps[1] = password;
    comps[2] = lstchg;
    return `${comps.join(':')}\n`;
  });
  if (found) await writeFile(file, lines.join(''));
  else await appendFile(file, `${name}:${password}:${lstchg}::::::\n`);
  return true;
}

const nameArgs = (z: typeof import('zod').z) => z.object({ name: z.string(), root: z.string().nullish() });
const intish = (z: typeof import('zod').z) =>
  z.union([z.number(), z.string()]).transform((v) => (/^-?\d+$/.test(String(v)) ? Number(v) : v));

function chageFn(key: string, param: string, arg: string, doc: string, validate = true) {
  return defineFunction({
    args: (z) => z.object({ name: z.string(), [arg]: intish(z), root: z.string().nullish() }),
    doc,
    run: (ctx, a) => {
      const r = a as Record<string, unknown>;
      return setAttrib(ctx, String(r.name), key, r[arg], param, r.root as Root, validate);
    },
  });
}

export default defineModule({
  name: 'shadow',
  doc: 'Manage the shadow password file (/etc/shadow).',
  virtual: () => (process.platform === 'linux' ? true : { ok: false, reason: 'shadow: Linux only' }),
  functions: {
    default_hash: defineFunction({
      doc: 'Return the hash a new account gets: "!".',
      run: () => '!',
    }),
    info: defineFunction({
      args: nameArgs,
      doc: "Return the shadow entry of a user: {name, passwd, lstchg, min, max, warn, inact, expire}.\n\nCLI Example: salt '*' shadow.info root",
      run: (_ctx, a) => shadowInfo(a.name, a.root),
    }),
    list_users: defineFunction({
      args: (z) => z.object({ root: z.string().nullish() }),
      doc: 'Return a sorted list of the users in the shadow file.',
      run: async (_ctx, a) => (await shadowAll(a.root)).map((e) => e.name).sort(),
    }),
    set_password: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          password: z.string(),
          use_usermod: pyFlag(z, false),
          root: z.string().nullish(),
        }),
      doc: "Set the password hash of a user (a crypt(3) hash, see shadow.gen_password).\n\nCLI Example: salt '*' shadow.set_password root '$1$UYCIxa628.9qXjpQCjM4a..'",
      run: async (ctx, a) => {
        if (!(await passwdByName(a.name, a.root))) {
          ctx.log.warn(`user ${a.name} does not exist, cannot set password`);
          return false;
        }
        if (!a.use_usermod) {
          if (!(await writeShadowHash(a.name, a.password, a.root, ctx.grains.os === 'ALT'))) return {};
        } else await runTool(ctx, ['usermod', ...rootArgs(a.root), '-p', a.password, a.name]);
        return (await shadowInfo(a.name, a.root)).passwd === a.password;
      },
    }),
    gen_password: defineFunction({
      args: (z) =>
        z.object({
          password: z.string(),
          crypt_salt: z.string().nullish(),
          algorithm: z.string().default('sha512'),
        }),
      doc: "Generate a crypt(3) hash of a password (md5, sha256 or sha512).\n\nCLI Example: salt '*' shadow.gen_password 'I_am_password' crypt_salt='I_am_salt'",
      run: (ctx, a) => genPassword(ctx, a.password, a.crypt_salt, a.algorithm),
    }),
    del_password: defineFunction({
      args: nameArgs,
      doc: 'Delete the password of a user (passwd -d): it can log in without one.',
      run: async (ctx, a) => {
        await runTool(ctx, ['passwd', ...rootArgs(a.root), '-d', a.name]);
        const i = await shadowInfo(a.name, a.root);
        return !i.passwd && i.name === a.name;
      },
    }),
    lock_password: defineFunction({
      args: nameArgs,
      doc: 'Lock the password of a user (passwd -l).',
      run: async (ctx, a) => {
        const pre = await shadowInfo(a.name, a.root);
        if (!pre.name) return false;
        if (String(pre.passwd).startsWith('!')) return true;
        await runTool(ctx, ['passwd', ...rootArgs(a.root), '-l', a.name]);
        return String((await shadowInfo(a.name, a.root)).passwd).startsWith('!');
      },
    }),
    unlock_password: defineFunction({
      args: nameArgs,
      doc: 'Unlock the password of a user (passwd -u).',
      run: async (ctx, a) => {
        const pre = await shadowInfo(a.name, a.root);
        if (!pre.name) return false;
        if (!String(pre.passwd).startsWith('!')) return true;
        await runTool(ctx, ['passwd', ...rootArgs(a.root), '-u', a.name]);
        return !String((await shadowInfo(a.name, a.root)).passwd).startsWith('!');
      },
    }),
    set_mindays: chageFn('min', '-m', 'mindays', 'Set the minimum number of days between password changes.'),
    set_maxdays: chageFn('max', '-M', 'maxdays', 'Set the maximum number of days a password is valid.'),
    set_inactdays: chageFn('inact', '-I', 'inactdays', 'Set the days after expiry before the account locks.'),
    set_warndays: chageFn('warn', '-W', 'warndays', 'Set the days of warning before the password expires.'),
    set_date: chageFn(
      'lstchg',
      '-d',
      'date',
      'Set the date of the last password change (days since 1970).',
      false,
    ),
    set_expire: chageFn(
      'expire',
      '-E',
      'expire',
      'Set the date the account expires (days since 1970, -1: never).',
      false,
    ),
  },
});
