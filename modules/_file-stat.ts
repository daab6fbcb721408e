/**
 * File facts as Salt's `file` module reports them (`salt/modules/file.py`: `stats`, `get_hash`,
 * `get_user`/`get_group`, `user_to_uid`, `group_to_gid`, and `salt.utils.files.normalize_mode`):
 * owners by name from /etc/passwd and /etc/group, modes as 4-digit octal strings, hashes of the
 * content. Node has no getpwnam; the account files are what NSS reads for local accounts.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import { pyStr } from '../kernel/util.js';

function accounts(file: string): Array<{ name: string; id: number }> {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => l.split(':'))
      .map((f) => ({ name: f[0]!, id: Number(f[2]) }));
  } catch {
    return [];
  }
}

/** The user name of `uid`, or the uid itself when no account has it (Salt's `uid_to_user`). */
export function uidToUser(uid: number): string | number {
  return accounts('/etc/passwd').find((a) => a.id === uid)?.name ?? uid;
}

/** The group name of `gid`, or the gid itself (Salt's `gid_to_group`). */
export function gidToGroup(gid: number): string | number {
  return accounts('/etc/group').find((a) => a.id === gid)?.name ?? gid;
}

/** The uid of a user name or number; `''` when unknown (Salt's `user_to_uid`). */
export function userToUid(user: string | number | null | undefined): number | '' {
  if (user === null || user === undefined || user === '') return process.getuid?.() ?? 0;
  if (typeof user === 'number') return user;
  const found = accounts('/etc/passwd').find((a) => a.name === user);
  if (found) return found.id;
  return /^\d+$/.test(user) ? Number(user) : '';
}

/** The gid of a group name or number; `''` when unknown (Salt's `group_to_gid`). */
export function groupToGid(group: string | number | null | undefined): number | '' {
  if (group === null || group === undefined || group === '') return '';
  if (typeof group === 'number') return group;
  const found = accounts('/etc/group').find((a) => a.name === group);
  if (found) return found.id;
  return /^\d+$/.test(group) ? Number(group) : '';
}

/** Salt's `normalize_mode`: `644`, `0o644`, `'0644'` → `'0644'`; null stays null. */
export function normalizeMode(mode: unknown): string | null {
  if (mode === null || mode === undefined) return null;
  // Python's str(mode).replace('0o', '0').strip('"').strip("'").lstrip('0').zfill(4)
  const s = pyStr(mode)
    .replaceAll('0o', '0')
    .replace(/^"+|"+$/g, '')
    .replace(/^'+|'+$/g, '')
    .replace(/^0+/, '');
  const sign = /^[+-]/.test(s) ? s[0]! : '';
  return sign + s.slice(sign.length).padStart(4 - sign.length, '0');
}

/** The 4-digit octal permission bits of a `st_mode` (Salt's `get_mode`). */
export function modeString(stMode: number): string {
  return (stMode & 0o7777).toString(8).padStart(4, '0');
}

/** A hex digest of `path`'s content (Salt's `get_hash`). */
export async function hashFile(path: string, form = 'sha256'): Promise<string> {
  return createHash(form)
    .update(await readFile(path))
    .digest('hex');
}

/** A hex digest of a buffer or string. */
export function hashData(data: Buffer | string, form = 'sha256'): string {
  return createHash(form).update(data).digest('hex');
}

export interface FileStats {
  inode: number;
  uid: number;
  gid: number;
  group: string | number;
  user: string | number;
  atime: number;
  mtime: number;
  ctime: number;
  size: number;
  mode: string;
  type: string;
  target: string;
  sum?: string;
}

function typeOf(s: import('node:fs').Stats): string {
  if (s.isDirectory()) return 'dir';
  if (s.isCharacterDevice()) return 'char';
  if (s.isBlockDevice()) return 'block';
  if (s.isFile()) return 'file';
  if (s.isSymbolicLink()) return 'link';
  if (s.isFIFO()) return 'pipe';
  if (s.isSocket()) return 'socket';
  return '';
}

/** Salt's `file.stats`; undefined when the path does not exist. */
export async function fileStats(
  path: string,
  hashType?: string | null,
  followSymlinks = true,
): Promise<FileStats | undefined> {
  // a dangling symlink is stat'ed as itself, as Salt's os.lstat fallback
  const s = await (followSymlinks ? stat(path) : lstat(path)).catch(() => lstat(path)).catch(() => undefined);
  if (!s) return undefined;
  const out: FileStats = {
    inode: s.ino,
    uid: s.uid,
    gid: s.gid,
    group: gidToGroup(s.gid),
    user: uidToUser(s.uid),
    atime: s.atimeMs / 1000,
    mtime: s.mtimeMs / 1000,
    ctime: s.ctimeMs / 1000,
    size: s.size,
    mode: modeString(s.mode),
    type: typeOf(s),
    target: await realpath(path).catch(() => path),
  };
  if (hashType && s.isFile()) out.sum = await hashFile(path, hashType);
  return out;
}

/** Whether `path` exists (without following a final symlink). */
export async function lexists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined)) !== undefined;
}

/** Whether `path` is a regular file (following symlinks). */
export async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isFile() ?? false;
}

/** Whether `path` is a directory (following symlinks). */
export async function isDir(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

/** Whether `path` is a symlink. */
export async function isLink(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isSymbolicLink() ?? false;
}
