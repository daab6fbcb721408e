/**
 * The `btrfs.subvolume_*` functions of Salt's btrfs module: create, delete, snapshot, list,
 * show, find-new, get/set the default and sync, each a `btrfs subvolume` command.
 */
import { defineFunction, type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr, pyTruthy } from '../kernel/util.js';
import { parseSubvolumeList, parseSubvolumeShow, words } from './_btrfs-parse.js';
import { runChecked } from './_fsutils.js';

const cli = (ex: string): string => `\n\nCLI Example:\n\n    ${ex}`;
const str = (z: typeof import('zod').z) => z.unknown().transform(pyStr);
const opt = (z: typeof import('zod').z) => z.unknown().default(null);
const flag = (z: typeof import('zod').z) => z.unknown().default(false);

/** Python's `os.path.join(a, b)`. */
const joinPath = (a: string, b: string): string =>
  b.startsWith('/') || !a ? b : a.endsWith('/') ? a + b : `${a}/${b}`;

async function exists(ctx: ExecContext, path: string): Promise<boolean> {
  const rc = await ctx.call('cmd.retcode', [['btrfs', 'subvolume', 'show', path]], { ignore_retcode: true });
  return rc === 0;
}

const LIST_FLAGS: readonly [string, string][] = [
  ['parent_id', '-p'],
  ['absolute', '-a'],
  ['ogeneration', '-c'],
  ['generation', '-g'],
  ['subvolumes', '-o'],
  ['uuid', '-u'],
  ['parent_uuid', '-q'],
  ['sent_subvolume_uuid', '-R'],
  ['snapshots', '-s'],
  ['readonly', '-r'],
  ['deleted', '-d'],
];
const SORTS = ['-', '', '+'].flatMap((o) => ['rootid', 'gen', 'ogen', 'path'].map((k) => o + k));

export const subvolumeFunctions = {
  subvolume_create: defineFunction({
    args: (z) => z.object({ name: str(z), dest: opt(z), qgroupids: opt(z) }),
    doc: `Create subvolume name in dest (or the current directory); qgroupids: a list of qgroups to add it to. True when created, False when it was there.${cli("salt '*' btrfs.subvolume_create var dest=/mnt")}`,
    run: async (ctx, a) => {
      if (pyTruthy(a.qgroupids) && !Array.isArray(a.qgroupids))
        throw new SALT_ERR_EXEC_COMMAND('Qgroupids parameter must be a list');
      const name = pyTruthy(a.dest) ? joinPath(pyStr(a.dest), a.name) : a.name;
      if (await exists(ctx, name)) return false;
      const cmd = ['btrfs', 'subvolume', 'create'];
      if (Array.isArray(a.qgroupids)) cmd.push('-i', ...a.qgroupids.map(pyStr));
      cmd.push(name);
      await runChecked(ctx, cmd);
      return true;
    },
  }),
  subvolume_delete: defineFunction({
    args: (z) => z.object({ name: opt(z), names: opt(z), commit: opt(z) }),
    doc: `Delete one subvolume (name) or several (names, a list); commit: 'after' or 'each' to wait for the transaction commit. True when deleted, False when none was there.${cli("salt '*' btrfs.subvolume_delete /var/volumes/tmp commit=after")}`,
    run: async (ctx, a) => {
      if (!pyTruthy(a.name) && !(pyTruthy(a.names) && Array.isArray(a.names)))
        throw new SALT_ERR_EXEC_COMMAND('Provide a value for the name parameter');
      if (pyTruthy(a.commit) && a.commit !== 'after' && a.commit !== 'each')
        throw new SALT_ERR_EXEC_COMMAND('Value for commit not recognized');
      const names: string[] = [];
      const given = [
        a.name,
        ...(Array.isArray(a.names) ? a.names : pyTruthy(a.names) ? [...pyStr(a.names)] : []),
      ];
      for (const n of given) if (pyTruthy(n) && (await exists(ctx, pyStr(n)))) names.push(pyStr(n));
      if (!names.length) return false;
      const cmd = ['btrfs', 'subvolume', 'delete'];
      if (a.commit === 'after') cmd.push('--commit-after');
      else if (a.commit === 'each') cmd.push('--commit-each');
      await runChecked(ctx, [...cmd, ...names]);
      return true;
    },
  }),
  subvolume_exists: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Check if a subvolume is present in the filesystem.${cli("salt '*' btrfs.subvolume_exists /mnt/var")}`,
    run: (ctx, a) => exists(ctx, a.path),
  }),
  subvolume_find_new: defineFunction({
    args: (z) => z.object({ name: str(z), last_gen: str(z) }),
    doc: `List the files modified in a subvolume since the transid last_gen, and the current transid.${cli("salt '*' btrfs.subvolume_find_new /var/volumes/tmp 1024")}`,
    run: async (ctx, a) => {
      const lines = (
        await runChecked(ctx, ['btrfs', 'subvolume', 'find-new', a.name, a.last_gen])
      ).stdout.split(/\r\n|\r|\n/);
      const last = words(lines[lines.length - 1] ?? '');
      return {
        files: lines.filter((l) => l.startsWith('inode')).map((l) => words(l).pop()),
        transid: last[last.length - 1],
      };
    },
  }),
  subvolume_get_default: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Get the default subvolume of the filesystem path.${cli("salt '*' btrfs.subvolume_get_default /var/volumes/tmp")}`,
    run: async (ctx, a) => {
      const w = words((await runChecked(ctx, ['btrfs', 'subvolume', 'get-default', a.path])).stdout);
      return { id: w[1], name: w[w.length - 1] };
    },
  }),
  subvolume_list: defineFunction({
    args: (z) =>
      z.object({
        path: str(z),
        parent_id: flag(z),
        absolute: flag(z),
        ogeneration: flag(z),
        generation: flag(z),
        subvolumes: flag(z),
        uuid: flag(z),
        parent_uuid: flag(z),
        sent_subvolume_uuid: flag(z),
        snapshots: flag(z),
        readonly: flag(z),
        deleted: flag(z),
        generation_cmp: opt(z),
        ogeneration_cmp: opt(z),
        sort: opt(z),
      }),
    doc: `List the subvolumes of the filesystem. Flags: parent_id, absolute, ogeneration, generation, subvolumes, uuid, parent_uuid, sent_subvolume_uuid, snapshots, readonly, deleted; generation_cmp and ogeneration_cmp ([+|-]value); sort: a list of [+|-]rootid, gen, ogen, path.${cli("salt '*' btrfs.subvolume_list /var/volumes/tmp sort='[-rootid]'")}`,
    run: async (ctx, a) => {
      const sort = a.sort;
      if (pyTruthy(sort) && !Array.isArray(sort))
        throw new SALT_ERR_EXEC_COMMAND('Sort parameter must be a list');
      if (Array.isArray(sort) && !sort.every((s) => typeof s === 'string' && SORTS.includes(s)))
        throw new SALT_ERR_EXEC_COMMAND('Value for sort not recognized');
      const cmd = ['btrfs', 'subvolume', 'list'];
      const values = a as Record<string, unknown>;
      for (const [key, sw] of LIST_FLAGS) if (pyTruthy(values[key])) cmd.push(sw);
      if (pyTruthy(a.generation_cmp)) cmd.push('-G', pyStr(a.generation_cmp));
      if (pyTruthy(a.ogeneration_cmp)) cmd.push('-C', pyStr(a.ogeneration_cmp));
      if (Array.isArray(sort) && sort.length) cmd.push(`--sort=${sort.join(',')}`);
      cmd.push(a.path);
      return parseSubvolumeList((await runChecked(ctx, cmd)).stdout);
    },
  }),
  subvolume_set_default: defineFunction({
    args: (z) => z.object({ subvolid: str(z), path: str(z) }),
    doc: `Set the subvolume subvolid as the default of the filesystem at path.${cli("salt '*' btrfs.subvolume_set_default 257 /var/volumes/tmp")}`,
    run: async (ctx, a) => {
      await runChecked(ctx, ['btrfs', 'subvolume', 'set-default', a.subvolid, a.path]);
      return true;
    },
  }),
  subvolume_show: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Show information of a given subvolume.${cli("salt '*' btrfs.subvolume_show /var/volumes/tmp")}`,
    run: async (ctx, a) =>
      parseSubvolumeShow((await runChecked(ctx, ['btrfs', 'subvolume', 'show', a.path])).stdout),
  }),
  subvolume_snapshot: defineFunction({
    args: (z) => z.object({ source: str(z), dest: opt(z), name: opt(z), read_only: flag(z) }),
    doc: `Snapshot the subvolume source as dest/name, or into dest under the source's name, or as name; read_only for a read-only snapshot.${cli("salt '*' btrfs.subvolume_snapshot /var/volumes/tmp dest=/.snapshots")}`,
    run: async (ctx, a) => {
      const dest = pyTruthy(a.dest) ? pyStr(a.dest) : '';
      let name = pyTruthy(a.name) ? pyStr(a.name) : '';
      if (!dest && !name) throw new SALT_ERR_EXEC_COMMAND('Provide parameter dest, name, or both');
      const cmd = ['btrfs', 'subvolume', 'snapshot'];
      if (pyTruthy(a.read_only)) cmd.push('-r');
      cmd.push(a.source);
      if (dest && !name) cmd.push(dest);
      if (dest && name) name = joinPath(dest, name);
      if (name) cmd.push(name);
      await runChecked(ctx, cmd);
      return true;
    },
  }),
  subvolume_sync: defineFunction({
    args: (z) => z.object({ path: str(z), subvolids: opt(z), sleep: opt(z) }),
    doc: `Wait until the given subvolumes (subvolids, a list of IDs) are completely removed after deletion; sleep: seconds between checks.${cli("salt '*' btrfs.subvolume_sync /var/volumes/tmp subvolids='[257]'")}`,
    run: async (ctx, a) => {
      if (pyTruthy(a.subvolids) && !Array.isArray(a.subvolids))
        throw new SALT_ERR_EXEC_COMMAND('Subvolids parameter must be a list');
      const cmd = ['btrfs', 'subvolume', 'sync'];
      if (pyTruthy(a.sleep)) cmd.push('-s', pyStr(a.sleep));
      cmd.push(a.path);
      if (Array.isArray(a.subvolids)) cmd.push(...a.subvolids.map(pyStr));
      await runChecked(ctx, cmd);
      return true;
    },
  }),
};
