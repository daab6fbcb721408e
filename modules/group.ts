/**
 * Salt's `group` execution module on Linux (`salt/modules/groupadd.py`): read groups from
 * `/etc/group`, change them with groupadd, groupmod, groupdel and gpasswd (argv, no shell).
 */
import { defineFunction, defineModule } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { type GroupEntry, groupAll, groupByName, runTool } from './_passwd-db.js';

type Root = string | null | undefined;

const format = (g: GroupEntry) => ({ name: g.name, passwd: g.passwd, gid: g.gid, members: g.members });

async function info(name: string, root?: Root): Promise<Record<string, unknown>> {
  const g = await groupByName(name, root);
  return g ? format(g) : {};
}

const rootArgs = (root: Root): string[] => (root ? ['-R', root] : []);
const toInt = (v: number | string): number | string => (/^\d+$/.test(String(v)) ? Number(v) : v);

export default defineModule({
  name: 'group',
  doc: 'Manage local groups with the shadow-utils tools (groupadd, groupmod, groupdel, gpasswd).',
  virtual: () => (process.platform === 'linux' ? true : { ok: false, reason: 'group: Linux only' }),
  functions: {
    info: defineFunction({
      args: (z) => z.object({ name: z.string(), root: z.string().nullish() }),
      doc: "Return information about a group: {name, passwd, gid, members}, {} when there is none.\n\nCLI Example: salt '*' group.info foo",
      run: (_ctx, a) => info(a.name, a.root),
    }),
    getent: defineFunction({
      args: (z) => z.object({ refresh: pyFlag(z, false), root: z.string().nullish() }),
      doc: 'Return info on all groups.',
      run: async (_ctx, a) => (await groupAll(a.root)).map(format),
    }),
    add: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          gid: z.union([z.number(), z.string()]).nullish(),
          system: pyFlag(z, false),
          root: z.string().nullish(),
          non_unique: pyFlag(z, false),
        }),
      doc: "Add the specified group (groupadd); True on success.\n\nCLI Example: salt '*' group.add foo 3456",
      run: async (ctx, a) => {
        const argv = ['groupadd'];
        if (a.gid) argv.push('-g', String(a.gid), ...(a.non_unique ? ['-o'] : []));
        if (a.system) argv.push('-r');
        argv.push(...rootArgs(a.root), a.name);
        return (await runTool(ctx, argv)).retcode === 0;
      },
    }),
    delete: defineFunction({
      args: (z) => z.object({ name: z.string(), root: z.string().nullish() }),
      doc: 'Remove the named group (groupdel).',
      run: async (ctx, a) => (await runTool(ctx, ['groupdel', ...rootArgs(a.root), a.name])).retcode === 0,
    }),
    chgid: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          gid: z.union([z.number(), z.string()]),
          root: z.string().nullish(),
          non_unique: pyFlag(z, false),
        }),
      doc: 'Change the gid of a named group (groupmod -g).',
      run: async (ctx, a) => {
        const gid = toInt(a.gid);
        const pre = await info(a.name, a.root);
        if (Object.keys(pre).length === 0) return false;
        if (pre.gid === gid) return true;
        await runTool(ctx, [
          'groupmod',
          ...rootArgs(a.root),
          a.non_unique ? '-og' : '-g',
          String(gid),
          a.name,
        ]);
        return (await info(a.name, a.root)).gid === gid;
      },
    }),
    adduser: defineFunction({
      args: (z) => z.object({ name: z.string(), username: z.string(), root: z.string().nullish() }),
      doc: 'Add a user to the group (gpasswd --add).',
      run: async (ctx, a) => {
        const argv = ['gpasswd', '--add', a.username, a.name, ...(a.root ? ['--root', a.root] : [])];
        return (await runTool(ctx, argv)).retcode === 0;
      },
    }),
    deluser: defineFunction({
      args: (z) => z.object({ name: z.string(), username: z.string(), root: z.string().nullish() }),
      doc: 'Remove a user from the group (gpasswd --del); True when it is not a member.',
      run: async (ctx, a) => {
        const g = await groupByName(a.name, a.root);
        if (!g?.members.includes(a.username)) return true;
        const argv = ['gpasswd', '--del', a.username, a.name, ...(a.root ? ['--root', a.root] : [])];
        return (await runTool(ctx, argv)).retcode === 0;
      },
    }),
    members: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          members_list: z.union([z.string(), z.array(z.string())]),
          root: z.string().nullish(),
        }),
      doc: "Replace the members of a group (gpasswd --members) with a comma-separated list.\n\nCLI Example: salt '*' group.members foo 'user1,user2,user3'",
      run: async (ctx, a) => {
        const list = Array.isArray(a.members_list) ? a.members_list.join(',') : a.members_list;
        const argv = ['gpasswd', '--members', list, a.name, ...(a.root ? ['--root', a.root] : [])];
        return (await runTool(ctx, argv)).retcode === 0;
      },
    }),
  },
});
