/**
 * What Salt's `acl` states (salt/states/linux_acl.py) share: what they read from `acl.getfacl`
 * before deciding (the entries of the ACL type asked for, a `d:`/`default:` type reading the
 * default ACL; the name an empty `acl_name` stands for; the rights a `perms` string sums to),
 * and how they set entries.
 */
import { existsSync } from 'node:fs';
import { SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION, SaltError } from '../kernel/index.js';
import { pyTypeName } from '../kernel/util.js';
import type { AclEntries, AclPerms, FileAcl } from '../modules/acl.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';

export type { AclEntries, AclPerms, FileAcl };

/** The file's entries of one ACL type, from its access or its default ACL. */
export interface AclView {
  /** The file's whole `getfacl` record. */
  file: FileAcl;
  /** The type without its `d:`/`default:` prefix. */
  type: string;
  /** The access ACL (the file's record) or the default ACL. */
  current: Readonly<Record<string, unknown>>;
  isDefault: boolean;
}

export function aclView(all: Readonly<Record<string, FileAcl>>, name: string, aclType: string): AclView {
  const file = all[name];
  // Salt indexes getfacl's map by the state's name (a KeyError when getfacl named it otherwise)
  if (!file) throw new SALT_ERR_EXEC_COMMAND(`KeyError: '${name}'`);
  if (aclType.startsWith('d:') || aclType.startsWith('default:')) {
    return {
      file,
      type: aclType.split(':').slice(1).join(':'),
      current: file.defaults ?? {},
      isDefault: true,
    };
  }
  return { file, type: aclType, current: file as unknown as Record<string, unknown>, isDefault: false };
}

/** The entries of the view's type, or undefined where the ACL has none. */
export function entriesOf(view: AclView): AclEntries | undefined {
  const list = view.current[view.type];
  return Array.isArray(list) ? (list as AclEntries) : undefined;
}

/** Whether Salt goes on past "ACL Type does not exist": the type has entries, or it is a default. */
export function typeKnown(view: AclView): boolean {
  return (entriesOf(view)?.length ?? 0) > 0 || view.isDefault;
}

/** The name Salt searches for: the owning user or group (from getfacl's comment) for an empty one. */
export function searchName(view: AclView, aclName: unknown): unknown {
  return aclName === '' ? (view.file.comment[view.type] ?? '') : aclName;
}

/** Whether entry `entry` is the one for `name` (Python's `name in entry`). */
export function names(entry: Readonly<Record<string, AclPerms>>, name: unknown): name is string {
  return typeof name === 'string' && Object.hasOwn(entry, name);
}

const OCTAL: Readonly<Record<string, number>> = { r: 4, w: 2, x: 1, '-': 0 };

/** Salt's `sum(_octal.get(i, i) for i in perms)`: `rwx` is 7; another character is Python's TypeError. */
export function octalSum(perms: unknown): number {
  if (typeof perms !== 'string') {
    const type = pyTypeName(perms).replace(/^<class '(.*)'>$/, '$1');
    throw new SALT_ERR_INVOCATION(`'${type}' object is not iterable`);
  }
  let sum = 0;
  for (const ch of perms) {
    const n = OCTAL[ch];
    if (n === undefined) throw new SALT_ERR_INVOCATION("unsupported operand type(s) for +: 'int' and 'str'");
    sum += n;
  }
  return sum;
}

export function getfacl(ctx: StateContext, name: string, recurse: boolean): Promise<Record<string, FileAcl>> {
  return ctx.call('acl.getfacl', [name], { recursive: recurse }) as Promise<Record<string, FileAcl>>;
}

/** Wipes the ACL first with `force`, then sets each name's entry; a failing setfacl is raised. */
export async function setEntries(
  ctx: StateContext,
  a: { name: string; acl_type: string; perms: unknown; recurse: boolean; force: boolean },
  aclNames: readonly unknown[],
): Promise<void> {
  if (a.force) await ctx.call('acl.wipefacls', [a.name], { recursive: a.recurse, raise_err: true });
  for (const aclName of aclNames) {
    await ctx.call('acl.modfacl', [a.acl_type, aclName, a.perms, a.name], {
      recursive: a.recurse,
      raise_err: true,
    });
  }
}

/** The command failure a state reports in its comment (Salt's `CommandExecutionError.strerror`). */
export function commandError(err: unknown): string {
  if (err instanceof SaltError && err.code === 'SALT_ERR_EXEC_COMMAND') return err.message;
  throw err;
}

/** What a state read, or the return it stops with: a missing file, an ACL type with no entries. */
export type AclRead =
  | { done: StateReturn }
  | { done?: undefined; all: Record<string, FileAcl>; view: AclView; ret: StateReturn };

/** The checks `present` and `absent` start with, in Salt's order. */
export async function readAcl(
  ctx: StateContext,
  a: { name: string; acl_type: string; recurse: boolean },
): Promise<AclRead> {
  const ret: StateReturn = { name: a.name, result: true, changes: {}, comment: '' };
  if (!existsSync(a.name)) return { done: { ...ret, result: false, comment: `${a.name} does not exist` } };
  const all = await getfacl(ctx, a.name, a.recurse);
  const view = aclView(all, a.name, a.acl_type);
  if (!typeKnown(view)) return { done: { ...ret, result: false, comment: 'ACL Type does not exist' } };
  return { all, view, ret };
}
