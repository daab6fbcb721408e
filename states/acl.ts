/**
 * Salt's `acl` state module (salt/states/linux_acl.py) over the `acl` execution module:
 * `acl.present` and `acl.absent` for one user or group entry, `acl.list_present` and
 * `acl.list_absent` for several (states/_acl-list.ts). Salt's comments, changes and quirks are
 * kept: the "old" rights of an update are spelled from the octal value bit by bit as Salt's
 * lookup does (6 reads `-wx`), and `absent` reports no changes.
 */
import { statSync } from 'node:fs';
import { pyStr } from '../kernel/util.js';
import { pyFlag } from '../modules/_coerce.js';
import { which } from '../modules/_which.js';
import { defineState, defineStateModule, type StateReturn } from '../plugins/states/index.js';
import {
  type AclPerms,
  commandError,
  entriesOf,
  type FileAcl,
  names,
  octalSum,
  readAcl,
  searchName,
  setEntries,
} from './_acl-common.js';
import { listAbsent, listPresent } from './_acl-list.js';

const LOOKUP: Readonly<Record<number, string>> = { 0: '-', 1: 'r', 2: 'w', 4: 'x' };

/** Salt's spelling of an entry's old rights (`_octal_lookup[n & 1]`, `[n & 2]`, `[n & 4]`). */
const spelled = (n: number): string => `${LOOKUP[n & 1]}${LOOKUP[n & 2]}${LOOKUP[n & 4]}`;

const isDir = (path: string): boolean => statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;

const entryArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    acl_type: z.string(),
    acl_name: z.unknown().default(''),
    perms: z.unknown().default(''),
    recurse: pyFlag(z, false),
    force: pyFlag(z, false),
  });

/** Salt's `acl.absent` takes no `force`. */
const absentArgs = (z: typeof import('zod').z) => entryArgs(z).omit({ force: true });

const present = defineState({
  args: entryArgs,
  doc: 'Ensure an ACL entry (acl_type user, group, mask, or d:/default: ones) gives acl_name these perms (rwx); recurse for a tree, force wipes the other entries first.',
  async run(ctx, a): Promise<StateReturn> {
    const read = await readAcl(ctx, a);
    if (read.done) return read.done;
    const { all, view, ret } = read;
    const search = searchName(view, a.acl_name);
    const user = (entriesOf(view) ?? []).filter((e) => Object.keys(e)[0] === search).pop();
    const name = pyStr(a.acl_name);
    const perms = pyStr(a.perms);
    if (user && typeof search === 'string') {
      const want = octalSum(a.perms);
      const have = (user[search] as AclPerms).octal;
      const refresh = a.recurse ? !everyPathHas(all, view.isDefault, view.type, search, want) : have !== want;
      if (!refresh) return { ...ret, comment: 'Permissions are in the desired state' };
      const changes = {
        new: { acl_name: a.acl_name, acl_type: a.acl_type, perms: a.perms },
        old: { acl_name: a.acl_name, acl_type: a.acl_type, perms: spelled(have) },
      };
      if (ctx.test) {
        const comment = `Updated permissions will be applied for ${name}: ${spelled(have)} -> ${perms}`;
        return { ...ret, comment, result: null, changes };
      }
      try {
        await setEntries(ctx, a, [a.acl_name]);
        return { ...ret, comment: `Updated permissions for ${name}`, result: true, changes };
      } catch (err) {
        return {
          ...ret,
          comment: `Error updating permissions for ${name}: ${commandError(err)}`,
          result: false,
        };
      }
    }
    const changes = { new: { acl_name: a.acl_name, acl_type: a.acl_type, perms: a.perms } };
    if (ctx.test) {
      return {
        ...ret,
        comment: `New permissions will be applied for ${name}: ${perms}`,
        result: null,
        changes,
      };
    }
    try {
      await setEntries(ctx, a, [a.acl_name]);
      return { ...ret, comment: `Applied new permissions for ${name}`, result: true, changes };
    } catch (err) {
      return {
        ...ret,
        comment: `Error updating permissions for ${name}: ${commandError(err)}`,
        result: false,
      };
    }
  },
});

/** With `recurse`: whether every path getfacl listed (directories only, for a default) has the entry at these rights. */
function everyPathHas(
  all: Readonly<Record<string, FileAcl>>,
  isDefault: boolean,
  type: string,
  search: string,
  octal: number,
): boolean {
  for (const [path, file] of Object.entries(all)) {
    if (isDefault && !isDir(path)) continue;
    const acl = (isDefault ? (file.defaults ?? {}) : file) as Record<string, unknown>;
    const list = Array.isArray(acl[type]) ? (acl[type] as Record<string, AclPerms>[]) : [];
    if (!list.some((e) => names(e, search) && (e[search] as AclPerms).octal === octal)) return false;
  }
  return true;
}

const absent = defineState({
  args: absentArgs,
  doc: "Ensure an ACL entry (acl_type user, group, or d:/default: ones) for acl_name is gone; recurse for a tree. As Salt's, it reports no changes.",
  async run(ctx, a): Promise<StateReturn> {
    const read = await readAcl(ctx, a);
    if (read.done) return read.done;
    const { all, view, ret } = read;
    const search = searchName(view, a.acl_name);
    const user = (entriesOf(view) ?? []).some((e) => Object.keys(e)[0] === search);
    // Salt looks through every path's access ACL, even for a default type
    const anywhere = Object.values(all).some((file) => {
      const list = (file as unknown as Record<string, unknown>)[view.type];
      return Array.isArray(list) && (list as Record<string, AclPerms>[]).some((e) => names(e, search));
    });
    if (!user && !anywhere) return { ...ret, comment: 'Permissions are in the desired state' };
    if (ctx.test) return { ...ret, comment: 'Removing permissions', result: null };
    // Salt passes `perms` as a further file to setfacl here (an error it ignores); tsalt does not
    await ctx.call('acl.delfacl', [a.acl_type, a.acl_name, a.name], { recursive: a.recurse });
    return { ...ret, comment: 'Removing permissions' };
  },
});

export default defineStateModule({
  name: 'acl',
  doc: 'Manage POSIX file access control lists (getfacl and setfacl).',
  virtual: () =>
    (which('getfacl') !== null && which('setfacl') !== null) || {
      ok: false,
      reason: 'The linux_acl state cannot be loaded: the getfacl or setfacl binary is not in the path.',
    },
  functions: { present, absent, list_present: listPresent, list_absent: listAbsent },
});
