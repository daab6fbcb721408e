/**
 * Salt's `acl.list_present` and `acl.list_absent` (salt/states/linux_acl.py): one ACL type's
 * entries for several names. Salt's flow is kept, quirks included: `list_present` walks the
 * names and each one's outcome overwrites the comment of the one before; the changes name
 * every name joined with ", ", an update's new rights as a number and its old as a string;
 * comments show the names as a Python list. Neither reads the tree under a directory, and
 * `list_absent` reports no changes.
 */
import { existsSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyStr } from '../kernel/util.js';
import { pyFlag } from '../modules/_coerce.js';
import { defineState, type StateReturn } from '../plugins/states/index.js';
import {
  type AclPerms,
  aclView,
  commandError,
  entriesOf,
  getfacl,
  octalSum,
  setEntries,
  typeKnown,
} from './_acl-common.js';

type Names = string | unknown[];

const listArgs = (z: typeof import('zod').z) =>
  z.object({
    name: z.string(),
    acl_type: z.string(),
    acl_names: z
      .unknown()
      .optional()
      .transform(
        (v): Names =>
          v === undefined || v === null ? [] : typeof v === 'string' ? v : Array.isArray(v) ? v : [v],
      )
      // Salt's default is None (sys.state_argspec): no names
      .meta({ argspecDefault: null }),
    perms: z.unknown().default(''),
    recurse: pyFlag(z, false),
    force: pyFlag(z, false),
  });

/** Python's `x in names` (a substring for a string) and iteration over the names. */
const has = (names: Names, x: unknown): boolean =>
  typeof names === 'string' ? typeof x === 'string' && names.includes(x) : names.includes(x);
const each = (names: Names): unknown[] => (typeof names === 'string' ? Array.from(names) : names);
const joined = (names: Names): string => each(names).map(pyStr).join(', ');

/** The entries of the type whose name is one of `names`, merged (Salt's `users.update(i)`). */
function matching(entries: Record<string, AclPerms>[] | undefined, names: Names): Record<string, AclPerms> {
  const users: Record<string, AclPerms> = {};
  for (const e of entries ?? []) {
    const first = Object.keys(e)[0];
    if (first !== undefined && has(names, first)) Object.assign(users, e);
  }
  return users;
}

export const listPresent = defineState({
  args: listArgs,
  doc: 'Ensure ACL entries of one type (user, group, or d:/default: ones) give every name in acl_names these perms (rwx); force wipes the other entries first.',
  async run(ctx, a): Promise<StateReturn> {
    let ret: StateReturn = { name: a.name, result: true, changes: {}, comment: '' };
    const octal = octalSum(a.perms);
    if (!existsSync(a.name)) return { ...ret, result: false, comment: `${a.name} does not exist` };
    const view = aclView(await getfacl(ctx, a.name, false), a.name, a.acl_type);
    if (!view.isDefault && !Array.isArray(view.current[a.acl_type])) {
      // Salt reads `_current_perms[acl_type]` here before anything else: a KeyError
      throw new SALT_ERR_EXEC_COMMAND(`KeyError: '${a.acl_type}'`);
    }
    const search: Names = a.acl_names === '' ? (view.file.comment[view.type] ?? '') : a.acl_names;
    if (!typeKnown(view)) return { ...ret, result: false, comment: 'ACL Type does not exist' };
    const shown = pyStr(a.acl_names);
    const perms = pyStr(a.perms);
    const users = matching(entriesOf(view), search);
    const fresh = (): Record<string, unknown> => ({
      new: { acl_name: joined(a.acl_names), acl_type: a.acl_type, perms: a.perms },
    });
    const apply = async (changes: Record<string, unknown>, done: string): Promise<StateReturn> => {
      try {
        await setEntries(ctx, a, each(a.acl_names));
        return { ...ret, comment: done, result: true, changes };
      } catch (err) {
        return {
          ...ret,
          comment: `Error updating permissions for ${shown}: ${commandError(err)}`,
          result: false,
        };
      }
    };
    if (Object.keys(users).length === 0) {
      const changes = fresh();
      if (ctx.test)
        return {
          ...ret,
          comment: `New permissions will be applied for ${shown}: ${perms}`,
          result: null,
          changes,
        };
      return apply(changes, `Applied new permissions for ${joined(a.acl_names)}`);
    }
    let changes: Record<string, unknown> = {};
    for (const one of each(search)) {
      const have =
        typeof one === 'string' && Object.hasOwn(users, one) ? (users[one] as AclPerms) : undefined;
      if (have && have.octal === octal) {
        ret = { ...ret, comment: 'Permissions are in the desired state' };
      } else if (have) {
        Object.assign(changes, {
          new: { acl_name: joined(a.acl_names), acl_type: a.acl_type, perms: octal },
          old: { acl_name: joined(a.acl_names), acl_type: a.acl_type, perms: String(have.octal) },
        });
        if (ctx.test) {
          const comment = `Updated permissions will be applied for ${shown}: ${have.octal} -> ${perms}`;
          return { ...ret, comment, result: null, changes };
        }
        ret = await apply(changes, `Updated permissions for ${shown}`);
      } else {
        changes = fresh();
        if (ctx.test) {
          return {
            ...ret,
            comment: `New permissions will be applied for ${shown}: ${perms}`,
            result: null,
            changes,
          };
        }
        ret = await apply(changes, `Applied new permissions for ${joined(a.acl_names)}`);
      }
    }
    return ret;
  },
});

export const listAbsent = defineState({
  args: (z) => listArgs(z).omit({ perms: true, force: true }),
  doc: "Ensure ACL entries of one type for every name in acl_names are gone. As Salt's, it reports no changes.",
  async run(ctx, a): Promise<StateReturn> {
    const ret: StateReturn = { name: a.name, result: true, changes: {}, comment: '' };
    if (!existsSync(a.name)) return { ...ret, result: false, comment: `${a.name} does not exist` };
    const view = aclView(await getfacl(ctx, a.name, false), a.name, a.acl_type);
    // Salt's set(...) of the owner's name when no names are given: its characters
    const names = each(a.acl_names);
    const search: Names = names.length === 0 ? Array.from(view.file.comment[view.type] ?? '') : names;
    if (!typeKnown(view)) return { ...ret, result: false, comment: 'ACL Type does not exist' };
    if (Object.keys(matching(entriesOf(view), search)).length === 0) {
      return { ...ret, comment: 'Permissions are in the desired state' };
    }
    if (ctx.test) return { ...ret, comment: 'Removing permissions', result: null };
    for (const aclName of names) {
      await ctx.call('acl.delfacl', [a.acl_type, aclName, a.name], { recursive: a.recurse });
    }
    return { ...ret, comment: 'Removing permissions' };
  },
});
