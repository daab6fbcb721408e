/**
 * More path and metadata functions of Salt's `file` module, merged into `modules/file.ts`:
 * `lchown`, `access`, `diskusage`, `is_blkdev`, `is_chrdev`, `is_fifo`, `is_hardlink`, `link`,
 * `makedirs_perms`, and the minion backups of `file.managed` (`list_backups`,
 * `restore_backup`, `delete_backup`). Returns and error strings are Salt 3006's.
 */
import { constants } from 'node:fs';
import {
  access,
  chmod,
  chown,
  copyFile,
  lchown,
  link,
  lstat,
  mkdir,
  readdir,
  rm,
  stat,
} from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { cli, expand, owner, ownerReq, str } from './_file-args.js';
import { readStamp } from './_file-backup-stamp.js';
import { backupMinion } from './_file-manage.js';
import { groupToGid, isDir, isFile, lexists, normalizeMode, userToUid } from './_file-stat.js';

/** uid and gid for an owner pair, `-1` for "leave", or why not. */
function ids(user: unknown, group: unknown): { uid: number; gid: number; err: string } {
  let err = '';
  let uid = user === null || user === undefined ? '' : userToUid(user as string);
  let gid = group === null || group === undefined ? '' : groupToGid(group as string);
  if (uid === '') {
    if (user) err += 'User does not exist\n';
    uid = -1;
  }
  if (gid === '') {
    if (group) err += 'Group does not exist\n';
    gid = -1;
  }
  return { uid, gid, err };
}

async function modeIs(
  path: string,
  test: (s: Awaited<ReturnType<typeof stat>>) => boolean,
): Promise<boolean> {
  try {
    return test(await stat(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw err;
  }
}

/** Salt's `makedirs_perms`: each missing folder of `name` made with the owner and mode. */
async function makedirsPerms(
  name: string,
  user: unknown,
  group: unknown,
  mode: string | null,
): Promise<void> {
  let head = dirname(name);
  let tail = basename(name);
  if (!tail) {
    tail = basename(head);
    head = dirname(head);
  }
  if (head && tail && head !== name && !(await lexists(head))) {
    try {
      await makedirsPerms(head, user, group, mode);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (tail === '.') return;
  }
  await mkdir(name);
  const { uid, gid } = ids(user, group);
  if (uid !== -1 || gid !== -1) await chown(name, uid, gid);
  const m = normalizeMode(mode);
  if (m) await chmod(name, Number.parseInt(m, 8));
}

export interface Backup {
  'Backup Time': string;
  Size: number;
  Location: string;
}

/** Salt's `list_backups`: the minion backups of `path`, newest first, keyed 0, 1, ... */
async function listBackups(ctx: ExecContext, path: string, limit?: number): Promise<Record<number, Backup>> {
  const bkdir = join(
    String(ctx.opts.cachedir ?? '/var/cache/salt/minion'),
    'file_backup',
    dirname(path).slice(1),
  );
  if (!(await isDir(bkdir))) return {};
  const name = basename(path);
  const found: Array<{ key: string; b: Backup }> = [];
  for (const f of await readdir(bkdir)) {
    const when = f.startsWith(name) ? readStamp(f.slice(name.length)) : undefined;
    const loc = join(bkdir, f);
    if (!when || !(await isFile(loc))) continue;
    // one entry per time, as Salt's dict keyed by the parsed timestamp
    const b = { 'Backup Time': when.text, Size: (await stat(loc)).size, Location: loc };
    const same = found.find((x) => x.key === when.key);
    if (same) same.b = b;
    else found.push({ key: when.key, b });
  }
  found.sort((x, y) => (x.key < y.key ? 1 : x.key > y.key ? -1 : 0));
  const kept = limit === undefined ? found : found.slice(0, limit);
  return Object.fromEntries(kept.map((x, i) => [i, x.b]));
}

/** The backup `id` names, or Salt's return saying why not. */
async function pickBackup(
  ctx: ExecContext,
  path: string,
  id: string,
): Promise<{ backup: Backup } | { result: false; comment: string }> {
  const bad = { result: false as const, comment: `Invalid backup_id '${id}'` };
  if (!/^-?\d+$/.test(id.trim()) || String(Number.parseInt(id, 10)).length !== id.length) return bad;
  const backup = (await listBackups(ctx, path))[Number.parseInt(id, 10)];
  if (!backup) return { result: false, comment: `backup_id '${id}' does not exist for ${path}` };
  return { backup };
}

/** Runs `act` on backup `id` of `path`; Salt's `{result, comment}` (act returns the comment, `Success...` when done). */
async function onBackup(
  ctx: ExecContext,
  rawPath: string,
  id: string,
  act: (path: string, location: string) => Promise<string>,
): Promise<{ result: boolean; comment: string }> {
  const path = expand(rawPath);
  const got = await pickBackup(ctx, path, id);
  if (!('backup' in got)) return got;
  const comment = await act(path, got.backup.Location);
  return { result: comment.startsWith('Success'), comment };
}

/** Python's `os.path.dirname` (`/a/b/` → `/a/b`, `a` → ``). */
export function pyDirname(path: string): string {
  const at = path.lastIndexOf('/');
  if (at < 0) return '';
  const head = path.slice(0, at + 1);
  return /^\/+$/.test(head) ? head : head.replace(/\/+$/, '');
}

/** Python's `os.path.join`: an absolute part starts over, a slash is added where missing. */
function pyJoin(parts: readonly string[]): string {
  let out = parts[0] ?? '';
  for (const p of parts.slice(1)) {
    if (p.startsWith('/')) out = p;
    else if (out === '' || out.endsWith('/')) out += p;
    else out += `/${p}`;
  }
  return out;
}

export const metaFunctions = {
  dirname: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Return the directory component of a pathname.${cli("salt '*' file.dirname 'C:\\path\\to\\file'")}`,
    inline: true,
    run: (_ctx, a) => pyDirname(expand(a.path)),
  }),
  basename: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Returns the final component of a pathname.${cli("salt '*' file.basename 'C:\\test.txt'")}`,
    inline: true,
    run: (_ctx, a) => expand(a.path).slice(expand(a.path).lastIndexOf('/') + 1),
  }),
  join: defineFunction({
    args: (z) => z.object({}),
    varargs: true,
    doc: `Return a normalized file system path for the underlying OS.${cli("salt '*' file.join '/' 'usr' 'local' 'bin'")}`,
    inline: true,
    run: (_ctx, _a, extra) => pyJoin(extra.args.map(String)),
  }),
  lchown: defineFunction({
    args: (z) => z.object({ path: str(z), user: ownerReq(z), group: ownerReq(z) }),
    doc: `Chown a file without following symlinks.${cli("salt '*' file.lchown /etc/passwd root root")}`,
    run: async (_ctx, a) => {
      const { uid, gid, err } = ids(a.user, a.group);
      if (err) throw new SALT_ERR_INVOCATION(err.trim());
      await lchown(expand(a.path), uid, gid);
      return null;
    },
  }),
  access: defineFunction({
    args: (z) => z.object({ path: str(z), mode: z.union([z.string(), z.number()]) }),
    doc: `Test whether the minion process has access f (exists), r, w or x to the path.${cli("salt '*' file.access /path/to/file f")}`,
    run: async (_ctx, a) => {
      const path = expand(a.path);
      if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION('Path to link must be absolute.');
      const modes: Record<string, number> = {
        f: constants.F_OK,
        r: constants.R_OK,
        w: constants.W_OK,
        x: constants.X_OK,
      };
      const m = typeof a.mode === 'number' ? a.mode : modes[a.mode];
      if (m === undefined || !Object.values(modes).includes(m))
        throw new SALT_ERR_INVOCATION('Invalid mode specified.');
      return access(path, m).then(
        () => true,
        () => false,
      );
    },
  }),
  diskusage: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Recursively calculate the disk usage of path, in bytes (each inode counted once).${cli("salt '*' file.diskusage /path/to/check")}`,
    run: async (_ctx, a) => {
      if (await isFile(a.path)) return (await stat(a.path)).size;
      const seen = new Set<number>();
      let total = 0;
      const walk = async (dir: string): Promise<void> => {
        const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          const p = join(dir, e.name);
          if (e.isDirectory()) await walk(p);
          else {
            const s = await stat(p).catch(() => null);
            if (!s || seen.has(s.ino)) continue;
            seen.add(s.ino);
            total += s.size;
          }
        }
      };
      await walk(a.path);
      return total;
    },
  }),
  is_blkdev: defineFunction({
    args: (z) => z.object({ name: str(z) }),
    doc: `Check if a file exists and is a block device.${cli("salt '*' file.is_blkdev /dev/sda")}`,
    run: (_ctx, a) => modeIs(expand(a.name), (s) => s.isBlockDevice()),
  }),
  is_chrdev: defineFunction({
    args: (z) => z.object({ name: str(z) }),
    doc: `Check if a file exists and is a character device.${cli("salt '*' file.is_chrdev /dev/null")}`,
    run: (_ctx, a) => modeIs(expand(a.name), (s) => s.isCharacterDevice()),
  }),
  is_fifo: defineFunction({
    args: (z) => z.object({ name: str(z) }),
    doc: `Check if a file exists and is a FIFO.${cli("salt '*' file.is_fifo /dev/fifo")}`,
    run: (_ctx, a) => modeIs(expand(a.name), (s) => s.isFIFO()),
  }),
  is_hardlink: defineFunction({
    args: (z) => z.object({ path: str(z) }),
    doc: `Check if the path is a hard link: a regular file with more than one link.${cli("salt '*' file.is_hardlink /path/to/link")}`,
    run: async (_ctx, a) => {
      const s = await lstat(expand(a.path)).catch(() => null);
      return !!s && s.isFile() && s.nlink > 1;
    },
  }),
  link: defineFunction({
    args: (z) => z.object({ src: str(z), path: str(z) }),
    doc: `Create a hard link to a file.${cli("salt '*' file.link /path/to/file /path/to/link")}`,
    run: async (_ctx, a) => {
      const src = expand(a.src);
      if (!isAbsolute(src)) throw new SALT_ERR_INVOCATION('File path must be absolute.');
      try {
        await link(src, a.path);
      } catch (err) {
        throw new SALT_ERR_EXEC_COMMAND(`Could not create '${a.path}': ${(err as Error).message}`);
      }
      return true;
    },
  }),
  makedirs_perms: defineFunction({
    args: (z) => z.object({ name: str(z), user: owner(z), group: owner(z), mode: owner(z).default('0755') }),
    doc: `Make a folder and its missing parents, each with the user, group and mode.${cli("salt '*' file.makedirs_perms /opt/code")}`,
    run: async (_ctx, a) => {
      await makedirsPerms(expand(a.name), a.user, a.group, a.mode == null ? null : String(a.mode));
      return null;
    },
  }),
  list_backups: defineFunction({
    args: (z) => z.object({ path: str(z), limit: z.coerce.number().int().nullish() }),
    doc: `List the previous versions of a file backed up by the file state backup system, newest first.${cli("salt '*' file.list_backups /foo/bar/baz.txt")}`,
    run: (ctx, a) => listBackups(ctx, expand(a.path), a.limit ?? undefined),
  }),
  restore_backup: defineFunction({
    args: (z) => z.object({ path: str(z), backup_id: str(z) }),
    doc: `Restore a previous version of a file backed up by the file state backup system.${cli("salt '*' file.restore_backup /foo/bar/baz.txt 0")}`,
    run: (ctx, a) =>
      onBackup(ctx, a.path, a.backup_id, async (path, loc) => {
        try {
          await backupMinion(path, String(ctx.opts.cachedir ?? '/var/cache/salt/minion'));
          await copyFile(loc, path);
        } catch (err) {
          return `Unable to restore ${loc} to ${path}: ${(err as Error).message}`;
        }
        return `Successfully restored ${loc} to ${path}`;
      }),
  }),
  delete_backup: defineFunction({
    args: (z) => z.object({ path: str(z), backup_id: str(z) }),
    doc: `Delete a previous version of a file backed up by the file state backup system.${cli("salt '*' file.delete_backup /var/cache/salt/minion/file_backup/home/foo/bar/baz.txt 0")}`,
    run: (ctx, a) =>
      onBackup(ctx, a.path, a.backup_id, async (_path, loc) => {
        try {
          await rm(loc);
        } catch (err) {
          return `Unable to remove ${loc}: ${(err as Error).message}`;
        }
        return `Successfully removed ${loc}`;
      }),
  }),
};
