/**
 * Salt's `user` execution module on Linux (`salt/modules/useradd.py`): read accounts from
 * `/etc/passwd` and `/etc/group`, change them with useradd, usermod and userdel (argv, no shell).
 */
import { defineFunction, defineModule, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import {
  gidToGroup,
  groupListOf,
  groupToGid,
  type PasswdEntry,
  passwdAll,
  passwdByName,
  runTool,
} from './_passwd-db.js';
import { loginClassFunctions } from './_user-loginclass.js';

type Root = string | null | undefined;

const GECOS_KEYS = ['fullname', 'roomnumber', 'workphone', 'homephone', 'other'] as const;
type GecosKey = (typeof GECOS_KEYS)[number];

function gecosOf(gecos: string): Record<GecosKey, string> {
  const f = gecos.split(',');
  const head = f.slice(0, 4);
  const rest = f.slice(4).join(',');
  while (head.length < 4) head.push('');
  return { fullname: head[0]!, roomnumber: head[1]!, workphone: head[2]!, homephone: head[3]!, other: rest };
}

/** Salt's `_build_gecos`: the fields joined by commas, trailing empty ones dropped. */
function buildGecos(g: Record<GecosKey, string>): string {
  return GECOS_KEYS.map((k) => g[k])
    .join(',')
    .replace(/,+$/, '');
}

/** Salt's `user.info` shape for one passwd entry. */
export async function formatInfo(e: PasswdEntry, root?: Root): Promise<Record<string, unknown>> {
  return {
    gid: e.gid,
    groups: await groupListOf(e.name, root),
    home: e.home,
    name: e.name,
    passwd: e.passwd,
    shell: e.shell,
    uid: e.uid,
    ...gecosOf(e.gecos),
  };
}

async function info(name: string, root?: Root): Promise<Record<string, unknown>> {
  const e = await passwdByName(name, root);
  return e ? formatInfo(e, root) : {};
}

const rootArgs = (root: Root): string[] => (root ? ['-R', root] : []);

/** Salt's `_chattrib`: usermod <param> <value> unless already so; whether it is so afterwards. */
async function chattrib(
  ctx: ExecContext,
  name: string,
  key: string,
  value: unknown,
  param: string,
  root: Root,
  persist = false,
): Promise<boolean> {
  const pre = await info(name, root);
  if (Object.keys(pre).length === 0) throw new SALT_ERR_EXEC_COMMAND(`User '${name}' does not exist`);
  if (value === pre[key]) return true;
  await runTool(ctx, ['usermod', ...rootArgs(root), ...(persist ? ['-m'] : []), param, String(value), name]);
  return (await info(name, root))[key] === value;
}

async function updateGecos(ctx: ExecContext, name: string, key: GecosKey, value: unknown, root: Root) {
  const v = value === undefined || value === null ? '' : String(value);
  const e = await passwdByName(name, root);
  if (!e) return false;
  const pre = gecosOf(e.gecos);
  if (pre[key] === v) return true;
  await runTool(ctx, ['usermod', ...rootArgs(root), '-c', buildGecos({ ...pre, [key]: v }), name]);
  const post = await passwdByName(name, root);
  return post ? gecosOf(post.gecos)[key] === v : false;
}

/** Salt's `user.chgroups`: set (or with `append` add to) the supplementary groups. */
export async function chgroups(
  ctx: ExecContext,
  name: string,
  groups: string | readonly string[],
  append: boolean,
  root: Root,
): Promise<boolean> {
  const list = typeof groups === 'string' ? groups.split(',') : [...groups];
  const have = new Set(await groupListOf(name, root));
  if (have.size === new Set(list).size && list.every((g) => have.has(g))) return true;
  const argv = ['usermod', ...(append ? ['-a'] : []), '-G', list.join(','), name, ...rootArgs(root)];
  const res = await runTool(ctx, argv);
  if (res.retcode !== 0 && res.stderr.includes('not found in')) {
    let ok = true;
    for (const g of list) if ((await runTool(ctx, ['gpasswd', '-a', name, g])).retcode !== 0) ok = false;
    return ok;
  }
  return res.retcode === 0;
}

const name = (z: typeof import('zod').z) => z.string();
const root = (z: typeof import('zod').z) => z.string().nullish();
const intish = (z: typeof import('zod').z) => z.union([z.number(), z.string()]);
const toInt = (v: number | string): number | string => (/^\d+$/.test(String(v)) ? Number(v) : v);

function gecosFn(key: GecosKey) {
  return defineFunction({
    args: (z) => z.object({ name: name(z), [key]: z.unknown(), root: root(z) }),
    doc: `Change the user's ${key} (a GECOS field).`,
    run: (ctx, a) => {
      const r = a as Record<string, unknown>;
      return updateGecos(ctx, String(r.name), key, r[key], r.root as Root);
    },
  });
}

export default defineModule({
  name: 'user',
  doc: 'Manage local users with the shadow-utils tools (useradd, usermod, userdel).',
  virtual: () => (process.platform === 'linux' ? true : { ok: false, reason: 'user: Linux only' }),
  functions: {
    info: defineFunction({
      args: (z) => z.object({ name: name(z), root: root(z) }),
      doc: "Return user information: {gid, groups, home, name, passwd, shell, uid, fullname, roomnumber, workphone, homephone, other}, {} when there is no such user.\n\nCLI Example: salt '*' user.info root",
      run: (_ctx, a) => info(a.name, a.root),
    }),
    getent: defineFunction({
      args: (z) => z.object({ refresh: pyFlag(z, false), root: root(z) }),
      doc: 'Return the list of all users (user.info of each).',
      run: async (_ctx, a) => Promise.all((await passwdAll(a.root)).map((e) => formatInfo(e, a.root))),
    }),
    list_users: defineFunction({
      args: (z) => z.object({ root: root(z) }),
      doc: 'Return a sorted list of all users.',
      run: async (_ctx, a) => (await passwdAll(a.root)).map((e) => e.name).sort(),
    }),
    list_groups: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      doc: 'Return a sorted list of the groups the user belongs to, its primary group included.',
      run: (_ctx, a) => groupListOf(a.name),
    }),
    primary_group: defineFunction({
      args: (z) => z.object({ name: name(z) }),
      doc: 'Return the name of the primary group of the user.',
      run: async (_ctx, a) => {
        const e = await passwdByName(a.name);
        return e ? String(await gidToGroup(e.gid)) : '';
      },
    }),
    add: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          uid: intish(z).nullish(),
          gid: intish(z).nullish(),
          groups: z.union([z.string(), z.array(z.string())]).nullish(),
          home: z.string().nullish(),
          shell: z.string().nullish(),
          unique: pyFlag(z, true),
          system: pyFlag(z, false),
          fullname: z.unknown().default(''),
          roomnumber: z.unknown().default(''),
          workphone: z.unknown().default(''),
          homephone: z.unknown().default(''),
          other: z.unknown().default(''),
          createhome: pyFlag(z, true),
          loginclass: z.string().nullish(),
          nologinit: pyFlag(z, false),
          root: root(z),
          usergroup: z.boolean().nullish(),
        }),
      doc: "Add a user to the minion (useradd); True on success.\n\nCLI Example: salt '*' user.add name <uid> <gid> <groups> <home> <shell>",
      run: async (ctx, a) => {
        const argv = ['useradd'];
        if (a.shell) argv.push('-s', a.shell);
        if (a.uid !== undefined && a.uid !== null && a.uid !== '') argv.push('-u', String(a.uid));
        const groups = typeof a.groups === 'string' ? a.groups.split(',') : a.groups;
        if (a.gid !== undefined && a.gid !== null && a.gid !== '') argv.push('-g', String(a.gid));
        else if (a.usergroup) argv.push('-U');
        else if (groups?.includes(a.name)) {
          const gid = await groupToGid(a.name, a.root);
          if (gid !== '') argv.push('-g', String(gid));
        }
        if (a.usergroup === false) argv.push('-N');
        argv.push(a.createhome ? '-m' : '-M');
        if (a.nologinit) argv.push('-l');
        if (a.home !== undefined && a.home !== null) argv.push('-d', a.home);
        if (!a.unique) argv.push('-o');
        if (a.system) argv.push('-r');
        argv.push(a.name, ...rootArgs(a.root));
        const res = await runTool(ctx, argv);
        if (res.retcode !== 0) return false;
        if (groups && groups.length > 0) await chgroups(ctx, a.name, groups, false, a.root);
        for (const k of GECOS_KEYS) {
          const v = (a as Record<string, unknown>)[k];
          if (v) await updateGecos(ctx, a.name, k, v, a.root);
        }
        return true;
      },
    }),
    delete: defineFunction({
      args: (z) =>
        z.object({ name: name(z), remove: pyFlag(z, false), force: pyFlag(z, false), root: root(z) }),
      doc: "Remove a user from the minion (userdel; remove=True deletes its home and mail spool).\n\nCLI Example: salt '*' user.delete name remove=True force=True",
      run: async (ctx, a) => {
        const argv = ['userdel', ...(a.remove ? ['-r'] : []), ...(a.force ? ['-f'] : []), a.name];
        const res = await runTool(ctx, [...argv, ...rootArgs(a.root)]);
        if (res.retcode === 0) return true;
        // Debian's userdel exits 12 when the mail spool is missing: the user is gone all the same
        return (
          res.retcode === 12 && ctx.grains.os_family === 'Debian' && /var\/(spool\/)?mail/.test(res.stderr)
        );
      },
    }),
    chuid: defineFunction({
      args: (z) => z.object({ name: name(z), uid: intish(z), root: root(z) }),
      doc: 'Change the uid of a user.',
      run: (ctx, a) => chattrib(ctx, a.name, 'uid', toInt(a.uid), '-u', a.root),
    }),
    chgid: defineFunction({
      args: (z) => z.object({ name: name(z), gid: intish(z), root: root(z) }),
      doc: 'Change the default group of a user.',
      run: (ctx, a) => chattrib(ctx, a.name, 'gid', toInt(a.gid), '-g', a.root),
    }),
    chshell: defineFunction({
      args: (z) => z.object({ name: name(z), shell: z.string(), root: root(z) }),
      doc: 'Change the default shell of a user.',
      run: (ctx, a) => chattrib(ctx, a.name, 'shell', a.shell, '-s', a.root),
    }),
    chhome: defineFunction({
      args: (z) => z.object({ name: name(z), home: z.string(), persist: pyFlag(z, false), root: root(z) }),
      doc: 'Change the home directory of a user (persist=True moves the old one there).',
      run: (ctx, a) => chattrib(ctx, a.name, 'home', a.home, '-d', a.root, a.persist),
    }),
    chgroups: defineFunction({
      args: (z) =>
        z.object({
          name: name(z),
          groups: z.union([z.string(), z.array(z.string())]),
          append: pyFlag(z, false),
          root: root(z),
        }),
      doc: 'Change the groups the user belongs to (append=True adds to them).',
      run: (ctx, a) => chgroups(ctx, a.name, a.groups, a.append, a.root),
    }),
    chfullname: gecosFn('fullname'),
    chroomnumber: gecosFn('roomnumber'),
    chworkphone: gecosFn('workphone'),
    chhomephone: gecosFn('homephone'),
    chother: gecosFn('other'),
    rename: defineFunction({
      args: (z) => z.object({ name: name(z), new_name: z.string(), root: root(z) }),
      doc: 'Change the username of a user.',
      run: async (ctx, a) => {
        if (Object.keys(await info(a.new_name, a.root)).length > 0)
          throw new SALT_ERR_EXEC_COMMAND(`User '${a.new_name}' already exists`);
        const pre = await info(a.name, a.root);
        if (Object.keys(pre).length === 0) throw new SALT_ERR_EXEC_COMMAND(`User '${a.name}' does not exist`);
        await runTool(ctx, ['usermod', ...rootArgs(a.root), '-l', a.new_name, a.name]);
        return (await info(a.new_name, a.root)).name === a.new_name;
      },
    }),
    ...loginClassFunctions,
  },
});
