/**
 * Salt's `user:` option for the master and salt-api. Started as root with another user named,
 * the daemon first hands that user its directories (Salt's `verify_env`: each directory and
 * what it holds, the job folders' contents aside; the log file and the pidfile), then becomes
 * that user (Salt's `check_user`: its groups, gid and uid, and the HOME, USER, LOGNAME and
 * SHELL variables), so every process it starts afterwards runs as that user too. Started as
 * the named user, nothing changes; started as a third user, the daemon refuses to start.
 */
import { execFileSync } from 'node:child_process';
import { lchownSync, lstatSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, relative, sep } from 'node:path';
import { createError } from '../kernel/errors.js';

export const SALT_ERR_USER_SWITCH = createError(
  'SALT_ERR_USER_SWITCH',
  (user: string, why: string) => `Salt configured to run as user "${user}" but unable to switch: ${why}`,
);

export interface UserEntry {
  name: string;
  uid: number;
  gid: number;
  home: string;
  shell: string;
}

/** The passwd entry of `name` (through NSS, as getpwnam), or undefined when there is none. */
export function lookupUser(name: string): UserEntry | undefined {
  let line: string;
  try {
    line = execFileSync('getent', ['passwd', name], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
  const [, , uid, gid, , home, shell] = line.trim().split('\n')[0]?.split(':') ?? [];
  if (uid === undefined || gid === undefined || !/^\d+$/.test(uid) || !/^\d+$/.test(gid)) return undefined;
  return { name, uid: Number(uid), gid: Number(gid), home: home ?? '/', shell: shell ?? '' };
}

/** Gives `path` to the user unless it is theirs already (symbolic links themselves, not their targets). */
function own(path: string, user: UserEntry): void {
  try {
    const st = lstatSync(path);
    if (st.uid !== user.uid || st.gid !== user.gid) lchownSync(path, user.uid, user.gid);
  } catch {
    // gone meanwhile, or not ours to change: the daemon's own checks report what matters
  }
}

/** Gives `dir` and all it holds to the user; inside a `jobs` folder (the job cache: it can hold very many files) nothing changes hands, as in Salt. */
function ownTree(dir: string, user: UserEntry): void {
  own(dir, user);
  let entries: import('node:fs').Dirent[] = [];
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    // missing or unreadable: the daemon's own checks report it
  }
  for (const e of entries) {
    const path = join(e.parentPath, e.name);
    if (!relative(dir, path).split(sep).slice(0, -1).includes('jobs')) own(path, user);
  }
}

export interface RunAsPaths {
  /** Folders given to the user with all they hold. */
  dirs: readonly string[];
  /** Single files given to the user when they exist (log file, pidfile). */
  files: readonly (string | null | undefined)[];
}

/**
 * Makes this process `name` (Salt's `user:`) after giving it `paths`. Returns the user it
 * switched to, or undefined when it already runs as `name`. Throws SALT_ERR_USER_SWITCH when
 * the user does not exist or this process may not become it.
 */
export function runAsUser(name: string, paths: RunAsPaths): UserEntry | undefined {
  if (process.platform === 'win32' || name === userInfo().username) return undefined;
  const user = lookupUser(name);
  if (!user) throw new SALT_ERR_USER_SWITCH(name, 'no such user');
  if (process.getuid?.() !== 0) {
    throw new SALT_ERR_USER_SWITCH(name, `only root may switch users (running as ${userInfo().username})`);
  }
  for (const dir of paths.dirs) ownTree(dir, user);
  for (const file of paths.files) if (file) own(file, user);
  try {
    // the user's supplementary groups (typed only for some Node versions, present on POSIX)
    const posix = process as { initgroups?: (user: string, extraGroup: number) => void };
    posix.initgroups?.(name, user.gid);
    process.setgid?.(user.gid);
    process.setuid?.(user.uid);
  } catch (err) {
    throw new SALT_ERR_USER_SWITCH(name, (err as Error).message, { cause: err });
  }
  if ('HOME' in process.env) process.env.HOME = user.home;
  if ('SHELL' in process.env) process.env.SHELL = user.shell;
  for (const v of ['USER', 'LOGNAME']) if (v in process.env) process.env[v] = name;
  return user;
}
