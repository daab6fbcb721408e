/**
 * Owner and mode checks of a managed path (Salt's `file.check_perms` and the state side's
 * `_check_user`): compares user, group and mode with what is wanted, changes them unless
 * testing, and records `user`/`group`/`mode` changes and failures in a state return.
 */
import { chmod, chown, lchown } from 'node:fs/promises';
import { fileStats, groupToGid, isDir, isLink, normalizeMode, userToUid } from './_file-stat.js';

/** A state return under construction (Salt's `ret` dict). */
export interface Ret {
  name: string;
  result: boolean | null;
  comment: string | string[];
  changes: Record<string, unknown>;
  warnings?: string[];
  [extra: string]: unknown;
}

export type Owner = string | number | null | undefined;

/** Salt's `_check_user`: `''`, or why the user or group is missing (a warning only when testing). */
export function checkUser(user: Owner, group: Owner, test: boolean): string {
  let err = '';
  if (user && userToUid(user) === '') err += `User ${user} is not available `;
  if (group && groupToGid(group) === '') err += `Group ${group} is not available`;
  return err && test ? '' : err;
}

function differs(want: Owner, name: string | number, id: number): boolean {
  return !(want === name || want === id || (String(want) === String(id) && typeof want === 'number'));
}

/** What a path is, for the steps `checkPerms` runs after owner and mode. */
export interface PathKind {
  dir: boolean;
  link: boolean;
}

/** A further check of `file.check_perms` (attributes, SELinux): it adds to `ret` and `comments`. */
export type PermsStep = (ret: Ret, comments: string[], kind: PathKind) => Promise<void>;

/**
 * Salt's `file.check_perms`: the updated return and the `l*` facts. Owner and mode here; `more`
 * adds the attribute and SELinux checks before the comments are joined.
 */
export async function checkPerms(
  name: string,
  retIn: Ret | null,
  user: Owner,
  group: Owner,
  modeIn: unknown,
  followSymlinks: boolean,
  test: boolean,
  more?: PermsStep,
): Promise<[Ret, Record<string, unknown>]> {
  const mode = normalizeMode(modeIn);
  const ret: Ret = retIn ?? { name, changes: {}, comment: [], result: true };
  const origComment = retIn ? ret.comment : '';
  const comments: string[] = [];
  const cur = await fileStats(name, null, followSymlinks);
  if (!cur) throw new Error(`Path not found: ${name}`);
  const perms: Record<string, unknown> = {
    luser: typeof user === 'number' ? cur.uid : cur.user,
    lgroup: typeof group === 'number' ? cur.gid : cur.group,
    lmode: cur.mode,
  };
  const link = await isLink(name);
  const dir = await isDir(name);
  if (user && differs(user, cur.user, cur.uid)) perms.cuser = user;
  if (group && differs(group, cur.group, cur.gid)) perms.cgroup = group;
  if ((perms.cuser || perms.cgroup) && !test) {
    const uid = userToUid(user ?? cur.user);
    const gid = group ? groupToGid(group) : cur.gid;
    // Salt's `file.chown` answers why, as one string, when the user or group does not exist
    const why = `${uid === '' ? 'User does not exist\n' : ''}${gid === '' ? 'Group does not exist\n' : ''}`;
    if (why) {
      ret.result = false;
      comments.push(why);
    } else {
      try {
        await (link && !followSymlinks ? lchown : chown)(name, uid as number, gid as number);
        if (!link) await chmod(name, Number.parseInt(cur.mode, 8));
      } catch {
        ret.result = false;
      }
    }
  }
  const skipMode = link && !followSymlinks;
  if (mode !== null && !test && !skipMode && mode !== cur.mode) {
    perms.cmode = mode;
    await chmod(name, Number.parseInt(mode, 8));
  }
  const post = (await fileStats(name, null, followSymlinks))!;
  if (user) {
    if (differs(user, post.user, post.uid)) {
      if (test) ret.changes.user = user;
      else {
        ret.result = false;
        comments.push(`Failed to change user to ${user}`);
      }
    } else if (perms.cuser) ret.changes.user = user;
  }
  if (group) {
    if (differs(group, post.group, post.gid)) {
      if (test) ret.changes.group = group;
      else {
        ret.result = false;
        comments.push(`Failed to change group to ${group}`);
      }
    } else if (perms.cgroup) ret.changes.group = group;
  }
  if (mode !== null && !skipMode) {
    if (mode !== post.mode) {
      if (test) ret.changes.mode = mode;
      else {
        ret.result = false;
        comments.push(`Failed to change mode to ${mode}`);
      }
    } else if (perms.cmode) ret.changes.mode = mode;
  }
  if (more) await more(ret, comments, { dir, link });
  if (typeof origComment === 'string') {
    if (origComment) comments.unshift(origComment);
    ret.comment = comments.join('; ');
  } else ret.comment = [...origComment, ...comments];
  if (test && Object.keys(ret.changes).length) ret.result = null;
  return [ret, perms];
}
