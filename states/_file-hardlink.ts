/**
 * Salt's `file.hardlink` state (`salt/states/file.py` `hardlink`, `_hardlink_check`,
 * `_hardlink_same`): `name` is a hard link to the file `target` (same inode), made or re-made,
 * with `force` replacing a plain file in the way and `makedirs` creating its folder.
 */
import { link, lstat, rm } from 'node:fs/promises';
import { dirname, isAbsolute } from 'node:path';
import { groupToGid, isDir, isFile, lexists, userToUid } from '../modules/_file-stat.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, newRet } from './_file-common.js';

async function inode(path: string): Promise<number | null> {
  return (await lstat(path).catch(() => null))?.ino ?? null;
}

async function isHardlink(path: string): Promise<boolean> {
  const s = await lstat(path).catch(() => null);
  return !!s && s.isFile() && s.nlink > 1;
}

async function same(name: string, target: string): Promise<boolean> {
  const [a, b] = [await inode(name), await inode(target)];
  return a !== null && a === b;
}

/** Salt's `_hardlink_check`: the test=True prediction. */
async function predict(
  name: string,
  target: string,
  force: boolean,
): Promise<[boolean | null, string, Record<string, string>]> {
  if (!(await lexists(target))) return [false, `Target ${target} for hard link does not exist`, {}];
  if (await isDir(target)) return [false, `Unable to hard link from directory ${target}`, {}];
  if (await isDir(name)) return [false, `Unable to hard link to directory ${name}`, {}];
  if (!(await lexists(name)))
    return [null, `Hard link ${name} to ${target} is set for creation`, { new: name }];
  if (await isHardlink(name)) {
    if (await same(name, target))
      return [true, `The hard link ${name} is presently targetting ${target}`, {}];
    return [null, `Link ${name} target is set to be changed to ${target}`, { change: name }];
  }
  if (force)
    return [
      null,
      `The file or directory ${name} is set for removal to make way for a new hard link targeting ${target}`,
      {},
    ];
  return [
    false,
    `File or directory exists where the hard link ${name} should be. Did you mean to use force?`,
    {},
  ];
}

export const hardlink = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      target: z.string(),
      force: z.boolean().default(false),
      makedirs: z.boolean().default(false),
      user: z.union([z.string(), z.number()]).nullish(),
      group: z.union([z.string(), z.number()]).nullish(),
      dir_mode: z.union([z.string(), z.number()]).nullish(),
    }),
  varkw: true,
  doc: 'Create a hard link. If the file already exists and is a hard link pointing to any location other than the specified target, the hard link will be replaced.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const target = a.target;
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.hardlink');
    const user = a.user ?? String(ctx.opts.user ?? 'root');
    const group = a.group ?? user;
    const errors: string[] = [];
    if (userToUid(user) === '') errors.push(`User ${user} does not exist`);
    if (groupToGid(group) === '') errors.push(`Group ${group} does not exist`);
    if (!isAbsolute(name)) errors.push(`Specified file ${name} is not an absolute path`);
    if (!isAbsolute(target)) errors.push(`Specified target ${target} is not an absolute path`);
    if (errors.length) return fail(ret, errors.join('. ') + (errors.length > 1 ? '.' : ''));
    if (ctx.test) {
      const [result, comment, changes] = await predict(name, target, a.force);
      return { ...ret, result, comment, changes };
    }
    if (await isDir(name)) return fail(ret, `Unable to hard link to directory ${name}`);
    if (await isDir(target)) return fail(ret, `Unable to hard link from directory ${target}`);
    if (!(await lexists(target))) return fail(ret, `Target ${target} for hard link does not exist`);
    if (!(await isDir(dirname(name)))) {
      if (!a.makedirs) return fail(ret, `Directory ${dirname(name)} for hard link is not present`);
      await ctx.call('file.makedirs', [name], { user, group, mode: a.dir_mode ?? null });
    }
    if ((await isFile(name)) && !(await isHardlink(name))) {
      if (!a.force) return fail(ret, `File exists where the hard link ${name} should be`);
      await rm(name);
      ret.changes.forced = 'File for hard link was forcibly replaced';
    }
    if (await isHardlink(name)) {
      if (await same(name, target))
        return { ...ret, comment: `Target of hard link ${name} is already pointing to ${target}` };
      await rm(name);
      try {
        await link(target, name);
      } catch (err) {
        return fail(ret, `Unable to set target of hard link ${name} -> ${target}: ${(err as Error).message}`);
      }
      ret.comment = `Set target of hard link ${name} -> ${target}`;
      ret.changes.new = name;
    } else if (!(await lexists(name))) {
      try {
        await link(target, name);
      } catch (err) {
        return fail(ret, `Unable to create new hard link ${name} -> ${target}: ${(err as Error).message}`);
      }
      ret.comment = `Created new hard link ${name} -> ${target}`;
      ret.changes.new = name;
    }
    return ret;
  },
});
