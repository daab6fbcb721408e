/**
 * The `file` states about a path's existence (Salt's `salt/states/file.py` `absent`, `exists`,
 * `missing`, `touch`, `symlink`, `copy`, `rename`): each with Salt's comments and changes, and
 * a `test=True` prediction that leaves the disk alone.
 */

import { readFileSync } from 'node:fs';
import {
  copyFile,
  cp,
  lchown,
  lstat,
  symlink as mklink,
  rename as mv,
  readlink,
  rm,
  stat,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, normalize } from 'node:path';
import type { z as Zod } from 'zod';
import { makeParents } from '../modules/_file-manage.js';
import { checkPerms, checkUser } from '../modules/_file-perms.js';
import {
  fileStats,
  gidToGroup,
  groupToGid,
  hashFile,
  isDir,
  isFile,
  isLink,
  lexists,
  uidToUser,
  userToUid,
} from '../modules/_file-stat.js';
import { defineState } from '../plugins/states/index.js';
import { expandUser, fail, newRet, newRetCommentFirst } from './_file-common.js';

const owner = (z: typeof Zod) => z.union([z.string(), z.number()]).nullish();

export const absent = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Make sure that the named file or directory is absent.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.absent');
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    if (name === '/') return fail(ret, 'Refusing to make "/" absent');
    const what =
      (await isFile(name)) || (await isLink(name)) ? 'File' : (await isDir(name)) ? 'Directory' : '';
    if (!what) {
      ret.comment = `File ${name} is not present`;
      return ret;
    }
    if (ctx.test) {
      ret.result = null;
      ret.changes.removed = name;
      ret.comment = `${what} ${name} is set for removal`;
      return ret;
    }
    try {
      await rm(name, { recursive: true, force: true });
    } catch (err) {
      return fail(ret, what === 'File' ? (err as Error).message : `Failed to remove directory ${name}`);
    }
    ret.comment = `Removed ${what.toLowerCase()} ${name}`;
    ret.changes.removed = name;
    return ret;
  },
});

export const exists = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Verify that the named file or directory is present or exists.',
  run: async (_ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.exists');
    if (!(await stat(name).catch(() => undefined))) return fail(ret, `Specified path ${name} does not exist`);
    ret.comment = `Path ${name} exists`;
    return ret;
  },
});

export const missing = defineState({
  args: (z) => z.object({ name: z.string() }),
  varkw: true,
  doc: 'Verify that the named file or directory is missing.',
  run: async (_ctx, a) => {
    const name = expandUser(a.name);
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.missing');
    if (await stat(name).catch(() => undefined)) return fail(ret, `Specified path ${name} exists`);
    ret.comment = `Path ${name} is missing`;
    return ret;
  },
});

export const touch = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      atime: z.union([z.number(), z.string()]).nullish(),
      mtime: z.union([z.number(), z.string()]).nullish(),
      makedirs: z.boolean().default(false),
    }),
  doc: 'Replicate the \'nix "touch" command to create a new empty file or update the atime and mtime of an existing file.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const ret: Record<string, unknown> & { name: string; changes: Record<string, unknown> } = {
      name,
      changes: {},
    };
    const err = (msg: string) => ({ ...ret, result: false, comment: msg });
    if (!name) return err('Must provide name to file.touch');
    if (!isAbsolute(name)) return err(`Specified file ${name} is not an absolute path`);
    const present = await stat(name).catch(() => undefined);
    if (ctx.test) {
      if (!present)
        return { ...ret, result: null, comment: `File ${name} is set to be created`, changes: { new: name } };
      const s = (await fileStats(name, null, false))!;
      if (
        (a.atime != null && String(a.atime) !== String(s.atime)) ||
        (a.mtime != null && String(a.mtime) !== String(s.mtime))
      )
        return {
          ...ret,
          result: null,
          comment: `Times set to be updated on file ${name}`,
          changes: { touched: name },
        };
      return {
        ...ret,
        result: true,
        comment: `File ${name} exists and has the correct times`,
        changes: { new: name },
      };
    }
    if (a.makedirs) await makeParents(name, null, null, null);
    if (!(await isDir(dirname(name)))) return err(`Directory not present to touch file ${name}`);
    if (!present) await writeFile(name, '', { flag: 'a' });
    const now = Date.now() / 1000;
    await utimes(name, a.atime != null ? Number(a.atime) : now, a.mtime != null ? Number(a.mtime) : now);
    if (!present)
      return { ...ret, result: true, comment: `Created empty file ${name}`, changes: { new: name } };
    return {
      ...ret,
      result: true,
      comment: `Updated times on ${(await isDir(name)) ? 'directory' : 'file'} ${name}`,
      changes: { touched: name },
    };
  },
});

async function linkOwner(path: string): Promise<[string | number, string | number]> {
  const s = await lstat(path);
  return [uidToUser(s.uid), gidToGroup(s.gid)];
}

export const symlink = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      target: z.string(),
      force: z.boolean().default(false),
      backupname: z.string().nullish(),
      makedirs: z.boolean().default(false),
      user: owner(z),
      group: owner(z),
      mode: z.union([z.string(), z.number()]).nullish(),
    }),
  varkw: true,
  doc: 'Create a symbolic link (symlink, soft link).',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const target = a.target;
    const ret = newRet(name);
    if (!name) return fail(ret, 'Must provide name to file.symlink');
    const user = a.user ?? (typeof ctx.opts.user === 'string' ? ctx.opts.user : 'root');
    let group = a.group;
    if (group === null || group === undefined) {
      const uid = userToUid(user);
      const line = readFileSync('/etc/passwd', 'utf8')
        .split('\n')
        .find((l) => l.split(':')[2] === String(uid));
      group = line ? gidToGroup(Number(line.split(':')[3])) : user;
    }
    const errors: string[] = [];
    if (userToUid(user) === '') errors.push(`User ${user} does not exist`);
    if (groupToGid(group) === '') errors.push(`Group ${group} does not exist`);
    if (!isAbsolute(name)) errors.push(`Specified file ${name} is not an absolute path`);
    if (errors.length) return fail(ret, errors.join('. '));
    const ownedRight = async () => {
      const [u, g] = await linkOwner(name);
      return (
        (u === user || String(userToUid(user)) === String(userToUid(String(u)))) &&
        (g === group || String(groupToGid(group)) === String(groupToGid(String(g))))
      );
    };
    const isLinkNow = await isLink(name);
    if (ctx.test) {
      let result: boolean | null;
      let comment: string;
      const changes: Record<string, unknown> = {};
      if (!isLinkNow && !(await lexists(name))) {
        changes.new = name;
        [result, comment] = [null, `Symlink ${name} to ${target} is set for creation`];
      } else if (isLinkNow) {
        if ((await readlink(name)) !== target) {
          changes.change = name;
          [result, comment] = [null, `Link ${name} target is set to be changed to ${target}`];
        } else if (await ownedRight()) [result, comment] = [true, `The symlink ${name} is present`];
        else {
          const [u, g] = await linkOwner(name);
          changes.ownership = `${u}:${g}`;
          [result, comment] = [
            null,
            `The symlink ${name} is present, but the ownership of the symlink would be changed from ${u}:${g} to ${user}:${group}`,
          ];
        }
      } else if (a.force)
        [result, comment] = [
          null,
          `The file or directory ${name} is set for removal to make way for a new symlink targeting ${target}`,
        ];
      else
        [result, comment] = [
          false,
          `File or directory exists where the symlink ${name} should be. Did you mean to use force?`,
        ];
      if (!(await isDir(dirname(name)))) {
        if (a.makedirs) comment += `\n${dirname(name)} will be created`;
        // Salt 3006 keeps the prediction's result and only says so
        else comment += `\nDirectory ${dirname(name)} for symlink is not present`;
      }
      return { ...ret, result, comment, changes };
    }
    if (!(await isDir(dirname(name)))) {
      if (a.makedirs) await makeParents(name, user, group, a.mode ? String(a.mode) : null);
      else return fail(ret, `Directory ${dirname(name)} for symlink is not present`);
    }
    if (isLinkNow) {
      if (normalize(await readlink(name)) !== normalize(target)) await rm(name);
      else {
        if (await ownedRight()) ret.comment = `Symlink ${name} is present and owned by ${user}:${group}`;
        else {
          await lchown(name, userToUid(user) as number, groupToGid(group) as number);
          ret.comment = `Set ownership of symlink ${name} to ${user}:${group}`;
          ret.changes.ownership = `${user}:${group}`;
        }
        return ret;
      }
    } else if (await lexists(name)) {
      if (a.backupname) {
        const bk = isAbsolute(a.backupname) ? a.backupname : join(dirname(normalize(name)), a.backupname);
        if (await lexists(bk)) {
          if (!a.force)
            return fail(
              ret,
              `Symlink & backup dest exists and Force not set. ${name} -> ${target} - backup: ${bk}`,
            );
          await rm(bk, { recursive: true, force: true });
        }
        await mv(name, bk);
      } else if (a.force) {
        await rm(name, { recursive: true, force: true });
        ret.changes.forced = 'Symlink was forcibly replaced';
      } else {
        const kind = (await isFile(name)) ? 'File' : (await isDir(name)) ? 'Directory' : 'File system entry';
        return fail(ret, `${kind} exists where the symlink ${name} should be`);
      }
    }
    try {
      await mklink(target, name);
    } catch (err) {
      return fail(ret, `Unable to create new symlink ${name} -> ${target}: ${(err as Error).message}`);
    }
    ret.comment = `Created new symlink ${name} -> ${target}`;
    ret.changes.new = name;
    if (!(await ownedRight())) {
      try {
        await lchown(name, userToUid(user) as number, groupToGid(group) as number);
      } catch {
        ret.result = false;
        ret.comment += `, but was unable to set ownership to ${user}:${group}`;
      }
    }
    return ret;
  },
});

export const copy = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source: z.string(),
      force: z.boolean().default(false),
      makedirs: z.boolean().default(false),
      preserve: z.boolean().default(false),
      user: owner(z),
      group: owner(z),
      mode: z.union([z.string(), z.number()]).nullish(),
      dir_mode: z.union([z.string(), z.number()]).nullish(),
      subdir: z.boolean().default(false),
    }),
  varkw: true,
  doc: 'If the file defined by the source option exists on the minion, copy it to the named path.',
  run: async (ctx, a) => {
    let name = expandUser(a.name);
    const source = expandUser(a.source);
    const ret = newRetCommentFirst(name, true, `Copied "${source}" to "${name}"`);
    if (!name) return fail(ret, 'Must provide name to file.copy');
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    if (!(await stat(source).catch(() => undefined)))
      return fail(ret, `Source file "${source}" is not present`);
    let { user, group, mode } = a;
    if (a.preserve) {
      const s = (await fileStats(source))!;
      [user, group, mode] = [s.user, s.group, s.mode];
    } else {
      if (user === null || user === undefined)
        user = typeof ctx.opts.user === 'string' ? ctx.opts.user : 'root';
      if (group === null || group === undefined) group = user;
      const u = checkUser(user, group, ctx.test);
      if (u) return fail(ret, u);
      if (mode === null || mode === undefined) mode = (await fileStats(source))!.mode;
    }
    if (a.subdir && (await isDir(name))) name = join(name, basename(source));
    let changed = true;
    if ((await lexists(source)) && (await lexists(name))) {
      if (a.force && (await isFile(name)) && (await hashFile(name)) === (await hashFile(source)))
        ret.comment = `${ret.comment} - files are identical but force flag is set`;
      if (!a.force) changed = false;
      else if (!ctx.test) await rm(name, { recursive: true, force: true });
    }
    if (ctx.test) {
      if (changed)
        return { ...ret, result: null, comment: `File "${source}" is set to be copied to "${name}"` };
      return {
        ...ret,
        result: true,
        comment: `The target file "${name}" exists and will not be overwritten`,
      };
    }
    if (!changed)
      return {
        ...ret,
        result: true,
        comment: `The target file "${name}" exists and will not be overwritten`,
      };
    if (!(await isDir(dirname(name)))) {
      if (!a.makedirs) return fail(ret, `The target directory ${dirname(name)} is not present`);
      await makeParents(name, user, group, a.dir_mode ? String(a.dir_mode) : null);
    }
    try {
      if (await isDir(source)) await cp(source, name, { recursive: true, verbatimSymlinks: true });
      else await copyFile(source, name);
      ret.changes = { [name]: source };
      if (!a.preserve) {
        const [check] = await checkPerms(name, ret, user, group, mode, false, false);
        if (!check.result) {
          ret.result = check.result;
          ret.comment = check.comment;
        }
      }
    } catch {
      return fail(ret, `Failed to copy "${source}" to "${name}"`);
    }
    return ret;
  },
});

export const rename = defineState({
  args: (z) =>
    z.object({
      name: z.string(),
      source: z.string(),
      force: z.boolean().default(false),
      makedirs: z.boolean().default(false),
    }),
  varkw: true,
  doc: 'If the source file exists on the system, rename it to the named file.',
  run: async (ctx, a) => {
    const name = expandUser(a.name);
    const source = expandUser(a.source);
    const ret = newRetCommentFirst(name);
    if (!name) return fail(ret, 'Must provide name to file.rename');
    if (!isAbsolute(name)) return fail(ret, `Specified file ${name} is not an absolute path`);
    if (!(await lexists(source))) {
      ret.comment = `Source file "${source}" has already been moved out of place`;
      return ret;
    }
    if (await lexists(name)) {
      if (!a.force) {
        ret.comment = `The target file "${name}" exists and will not be overwritten`;
        return ret;
      }
      if (!ctx.test) await rm(name, { recursive: true, force: true });
    }
    if (ctx.test)
      return { ...ret, result: null, comment: `File "${source}" is set to be moved to "${name}"` };
    if (!(await isDir(dirname(name)))) {
      if (!a.makedirs) return fail(ret, `The target directory ${dirname(name)} is not present`);
      await makeParents(name, null, null, null);
    }
    try {
      if (await isLink(source)) {
        await mklink(await readlink(source), name);
        await rm(source);
      } else await mv(source, name);
    } catch {
      return fail(ret, `Failed to move "${source}" to "${name}"`);
    }
    ret.comment = `Moved "${source}" to "${name}"`;
    ret.changes = { [name]: source };
    return ret;
  },
});
