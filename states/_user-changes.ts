/**
 * What `user.present` would change on an existing account (Salt's `_changes` and
 * `_group_changes` in `salt/states/user.py`), Linux only: uid, gid, groups, home, shell,
 * password hash and ageing, lock, and the GECOS fields.
 */

import { stat } from 'node:fs/promises';
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { gidToGroup, groupToGid } from '../modules/_passwd-db.js';
import type { StateContext } from '../plugins/states/index.js';

/** The wanted account, as `user.present` takes it. */
export interface WantedUser {
  uid?: number | null;
  gid?: number | string | null;
  groups?: string[] | null;
  optional_groups?: string[] | null;
  remove_groups: boolean;
  home?: string | null;
  createhome: boolean;
  password?: string | null;
  enforce_password: boolean;
  empty_password: boolean;
  shell?: string | null;
  fullname?: string | null;
  roomnumber?: string | null;
  workphone?: string | null;
  homephone?: string | null;
  other?: string | null;
  date?: number | string | null;
  mindays?: number | null;
  maxdays?: number | null;
  inactdays?: number | null;
  warndays?: number | null;
  expire?: number | string | null;
  allow_uid_change: boolean;
  allow_gid_change: boolean;
  password_lock?: boolean | null;
}

type Info = Record<string, unknown>;

async function isDir(p: string): Promise<boolean> {
  try {
    return (await stat(p)).isDirectory();
  } catch {
    return false;
  }
}

async function groupChanges(
  ctx: StateContext,
  cur: readonly string[],
  wanted: readonly string[],
  remove: boolean,
): Promise<boolean> {
  const c = new Set(cur);
  const w = new Set(wanted);
  const same = c.size === w.size && [...c].every((g) => w.has(g));
  if (same || (!remove && [...w].every((g) => c.has(g)))) return false;
  const all = new Map<string, Info>();
  for (const g of new Set([...c, ...w])) all.set(g, ((await ctx.call('group.info', [g])) ?? {}) as Info);
  const diff = remove
    ? [...w].filter((g) => !c.has(g)).concat([...c].filter((g) => !w.has(g)))
    : [...w].filter((g) => !c.has(g));
  const remain = diff.filter((d) => {
    for (const [g, i] of all) if (g !== d && all.get(d)?.gid === i.gid) return false;
    return true;
  });
  return remain.length > 0;
}

/**
 * The changes `user.present` would make to user `name`: false when it does not exist. Throws
 * SALT_ERR_EXEC_COMMAND (Salt's message with its info list) for a uid/gid change not allowed.
 */
export async function userChanges(ctx: StateContext, name: string, w: WantedUser): Promise<false | Info> {
  const lshad = ((await ctx.call('shadow.info', [name])) ?? {}) as Info;
  const lusr = ((await ctx.call('user.info', [name])) ?? {}) as Info;
  if (Object.keys(lusr).length === 0) return false;
  const change: Info = {};
  const lgroups = [...((lusr.groups as string[]) ?? [])];
  let wanted = [...new Set([...(w.groups ?? []), ...(w.optional_groups ?? [])])].sort();
  if (!w.remove_groups || (w.groups == null && !(w.optional_groups && w.optional_groups.length > 0)))
    wanted = [...new Set([...wanted, ...lgroups])].sort();
  if (w.uid && lusr.uid !== w.uid) change.uid = w.uid;
  if (w.gid !== undefined && w.gid !== null && lusr.gid !== w.gid && lusr.gid !== (await groupToGid(w.gid)))
    change.gid = w.gid;
  const defaultGrp = await gidToGroup(w.gid ?? lusr.gid);
  const oldDefault = await gidToGroup(lusr.gid);
  const drop = (list: string[], g: unknown) => {
    const i = list.indexOf(String(g));
    if (i !== -1) list.splice(i, 1);
  };
  if (lgroups.includes(String(defaultGrp)) || wanted.includes(String(defaultGrp))) {
    drop(lgroups, defaultGrp);
    drop(wanted, defaultGrp);
  }
  if (oldDefault !== defaultGrp) drop(lgroups, oldDefault);
  if (lgroups.includes(name) && !wanted.includes(name)) drop(lgroups, name);
  if (await groupChanges(ctx, lgroups, wanted, w.remove_groups)) {
    if (wanted.length > 0 || w.remove_groups) change.groups = wanted;
  }
  if (w.home && lusr.home !== w.home) change.home = w.home;
  if (w.createhome) {
    const newhome = w.home ? w.home : (lusr.home as string | undefined);
    if (newhome !== undefined && newhome !== null && !(await isDir(newhome)))
      change.homeDoesNotExist = newhome;
  }
  if (w.shell && lusr.shell !== w.shell) change.shell = w.shell;
  const spw = String(lshad.passwd ?? '');
  if (w.password && !w.empty_password) {
    if ((spw === '!' || w.enforce_password) && spw !== w.password) change.passwd = w.password;
  }
  if (w.empty_password && spw !== '') change.empty_password = true;
  if (w.date !== undefined && w.date !== null && lshad.lstchg !== w.date) change.date = w.date;
  if (w.mindays !== undefined && w.mindays !== null && lshad.min !== w.mindays) change.mindays = w.mindays;
  if (w.maxdays !== undefined && w.maxdays !== null && lshad.max !== w.maxdays) change.maxdays = w.maxdays;
  if (w.inactdays !== undefined && w.inactdays !== null && lshad.inact !== w.inactdays)
    change.inactdays = w.inactdays;
  if (w.warndays !== undefined && w.warndays !== null && lshad.warn !== w.warndays)
    change.warndays = w.warndays;
  if (w.expire && lshad.expire !== w.expire) change.expire = w.expire;
  if ((w.password_lock && !spw.startsWith('!')) || (w.password_lock === false && spw.startsWith('!')))
    change.password_lock = w.password_lock;
  for (const k of ['fullname', 'roomnumber', 'workphone', 'homephone', 'other'] as const) {
    const v = w[k];
    if (v !== undefined && v !== null && lusr[k] !== v) change[k] = v;
  }
  const errors: string[] = [];
  if (!w.allow_uid_change && 'uid' in change)
    errors.push(
      `Changing uid (${String(lusr.uid)} -> ${String(w.uid)}) not permitted, set allow_uid_change to True to force this change. Note that this will not change file ownership.`,
    );
  if (!w.allow_gid_change && 'gid' in change)
    errors.push(
      `Changing gid (${String(lusr.gid)} -> ${String(w.gid)}) not permitted, set allow_gid_change to True to force this change. Note that this will not change file ownership.`,
    );
  if (errors.length > 0)
    throw new SALT_ERR_EXEC_COMMAND(
      `Encountered error checking for needed changes. Additional info follows:\n\n${errors.map((e) => `- ${e}`).join('\n')}`,
    );
  return change;
}
