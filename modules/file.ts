/**
 * Salt's `file` execution module (`salt/modules/file.py`), the functions states and people
 * call most: existence, stats, hashes, owners and modes; read, write, append, prepend, touch;
 * mkdir/makedirs, remove, rename, copy, move, symlinks; search, contains, replace,
 * blockreplace, comment_line, psed; find (basic); and the pieces of `file.managed`
 * (source_list, get_managed, check_managed_changes, manage_file, get_diff); `line`, `sed`,
 * `patch` and the rest of `_file-fns-text.ts` and `_file-fns-meta.ts`. Returns are
 * Salt 3006's, errors its messages.
 */
import {
  chmod,
  chown,
  copyFile,
  cp,
  lchown,
  lstat,
  mkdir,
  opendir,
  readFile,
  readlink,
  realpath,
  rename,
  rm,
  symlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { pyTruthy } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { cli, expand, owner, ownerReq, str } from './_file-args.js';
import { diffBuffers } from './_file-diff.js';
import { blockReplace, commentLine, replaceInFile, searchFile } from './_file-edit.js';
import { findFiles } from './_file-find.js';
import { checkFunctions } from './_file-fns-checks.js';
import { managedFunctions } from './_file-fns-managed.js';
import { metaFunctions, pyDirname } from './_file-fns-meta.js';
import { miscFunctions } from './_file-fns-misc.js';
import { sysFunctions } from './_file-fns-sys.js';
import { textFunctions } from './_file-fns-text.js';
import { mknodFunctions } from './_file-mknod.js';
import { rmdirFunctions } from './_file-rmdir.js';
import { fileClient } from './_file-source.js';
import {
  fileStats,
  gidToGroup,
  groupToGid,
  hashFile,
  isDir,
  isFile,
  isLink,
  lexists,
  normalizeMode,
  uidToUser,
  userToUid,
} from './_file-stat.js';

const HASH_BY_LENGTH: Record<number, string> = {
  32: 'md5',
  40: 'sha1',
  56: 'sha224',
  64: 'sha256',
  96: 'sha384',
  128: 'sha512',
};

async function statsOrThrow(path: string, hashType?: string | null, follow = true) {
  const s = await fileStats(expand(path), hashType, follow);
  if (!s) throw new SALT_ERR_EXEC_COMMAND(`Path not found: ${path}`);
  return s;
}

/** Salt's `file.chown`: `null` when done, else the reasons as one string. */
async function chownPath(
  path: string,
  user: string | number | null | undefined,
  group: string | number | null | undefined,
): Promise<string | null> {
  let uid = user === null || user === undefined ? '' : userToUid(user);
  let gid = group === null || group === undefined ? '' : groupToGid(group);
  let err = '';
  if (uid === '') {
    if (user) err += 'User does not exist\n';
    else uid = -1;
  }
  if (gid === '') {
    if (group) err += 'Group does not exist\n';
    else gid = -1;
  }
  if (!(await stat0(path))) {
    if (!err && (await isLink(path))) {
      await lchown(path, uid as number, gid as number);
      return null;
    }
    err += 'File not found';
  }
  if (err) return err;
  await chown(path, uid as number, gid as number);
  return null;
}

async function stat0(path: string): Promise<boolean> {
  return (await isFile(path)) || (await isDir(path)) || ((await lexists(path)) && !(await isLink(path)));
}

/** Salt's `makedirs_perms` for one new folder. */
async function mkdirPerms(path: string, user: unknown, group: unknown, mode: unknown): Promise<void> {
  await mkdir(path);
  const m = normalizeMode(mode);
  if (user || group) await chownPath(path, user as string, group as string);
  if (m) await chmod(path, Number.parseInt(m, 8));
}

export default defineModule({
  name: 'file',
  doc: 'Manage information about regular files, directories, and special files on the minion: set and read user, group, mode and data.',
  functions: {
    file_exists: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Check if a file exists.${cli("salt '*' file.file_exists /etc/passwd")}`,
      run: (_ctx, a) => isFile(expand(a.path)),
    }),
    directory_exists: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Check if a directory exists.${cli("salt '*' file.directory_exists /etc")}`,
      run: (_ctx, a) => isDir(expand(a.path)),
    }),
    stats: defineFunction({
      args: (z) =>
        z.object({ path: str(z), hash_type: z.string().nullish(), follow_symlinks: pyFlag(z, true) }),
      doc: `Return a dict containing the stats for a given file.${cli("salt '*' file.stats /etc/passwd")}`,
      run: (_ctx, a) => statsOrThrow(a.path, a.hash_type, a.follow_symlinks),
    }),
    lstat: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Returns the lstat attributes for the given path.${cli("salt '*' file.lstat /path/to/file")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION('Path to file must be absolute.');
        const s = await lstat(path).catch(() => undefined);
        if (!s) return {};
        return {
          st_atime: s.atimeMs / 1000,
          st_ctime: s.ctimeMs / 1000,
          st_gid: s.gid,
          st_mode: s.mode,
          st_mtime: s.mtimeMs / 1000,
          st_nlink: s.nlink,
          st_size: s.size,
          st_uid: s.uid,
        };
      },
    }),
    get_hash: defineFunction({
      args: (z) =>
        z.object({ path: str(z), form: z.string().default('sha256'), chunk_size: z.number().default(65536) }),
      doc: `Get the hash sum of a file.${cli("salt '*' file.get_hash /etc/shadow")}`,
      run: async (_ctx, a) => {
        try {
          return await hashFile(expand(a.path), a.form);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT')
            throw new SALT_ERR_EXEC_COMMAND(`[Errno 2] No such file or directory: '${a.path}'`);
          throw new SALT_ERR_INVOCATION(`Invalid hash type '${a.form}'`);
        }
      },
    }),
    get_sum: defineFunction({
      args: (z) => z.object({ path: str(z), form: z.string().default('sha256') }),
      doc: `Return the checksum for the given file, or 'File not found'.${cli("salt '*' file.get_sum /etc/passwd sha512")}`,
      run: async (_ctx, a) =>
        (await isFile(expand(a.path))) ? hashFile(expand(a.path), a.form) : 'File not found',
    }),
    check_hash: defineFunction({
      args: (z) => z.object({ path: str(z), file_hash: z.string() }),
      doc: `Check if a file matches the given hash string (<hash_type>=<hash>, <hash_type>:<hash> or a bare hash).${cli("salt '*' file.check_hash /etc/fstab sha256:<hash>")}`,
      run: async (_ctx, a) => {
        const sep = [':', '='].find((s) => a.file_hash.includes(s));
        let type: string | undefined;
        let value = a.file_hash;
        if (sep)
          [type, value] = [
            a.file_hash.slice(0, a.file_hash.indexOf(sep)),
            a.file_hash.slice(a.file_hash.indexOf(sep) + 1),
          ];
        else {
          type = HASH_BY_LENGTH[a.file_hash.length];
          if (!type)
            throw new SALT_ERR_INVOCATION(
              `Hash ${a.file_hash} (length: ${a.file_hash.length}) could not be matched to a supported hash type. The supported hash types and lengths are: md5 (32), sha1 (40), sha224 (56), sha256 (64), sha384 (96), sha512 (128)`,
            );
        }
        return (await hashFile(expand(a.path), type)) === value;
      },
    }),
    read: defineFunction({
      args: (z) => z.object({ path: str(z), binary: pyFlag(z, false) }),
      doc: `Return the content of the file.${cli("salt '*' file.read /path/to/file")}`,
      run: async (_ctx, a) => {
        try {
          const data = await readFile(expand(a.path));
          return a.binary ? new Uint8Array(data) : data.toString('utf8');
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(`[Errno 2] No such file or directory: '${a.path}'`, { cause: err });
        }
      },
    }),
    write: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Write text to a file, overwriting any existing contents; each argument is one line.${cli('salt \'*\' file.write /etc/motd "With all thine offerings thou shalt offer salt."')}`,
      run: async (_ctx, a, extra) => {
        const lines = linesOf(extra.args, extra.kwargs);
        await writeFile(expand(a.path), lines.map((l) => `${l}\n`).join(''));
        return `Wrote ${lines.length} lines to "${expand(a.path)}"`;
      },
    }),
    append: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Append text to the end of a file (a missing final newline is added first).${cli('salt \'*\' file.append /etc/motd "line one" "line two"')}`,
      run: async (_ctx, a, extra) => {
        const path = expand(a.path);
        const lines = linesOf(extra.args, extra.kwargs);
        const cur = await readFile(path).catch(() => Buffer.alloc(0));
        const lead = cur.length && cur[cur.length - 1] !== 0x0a ? '\n' : '';
        await writeFile(path, lead + lines.map((l) => `${l}\n`).join(''), { flag: 'a' });
        return `Wrote ${lines.length} lines to "${path}"`;
      },
    }),
    prepend: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Prepend text to the beginning of a file.${cli('salt \'*\' file.prepend /etc/motd "line one"')}`,
      run: async (_ctx, a, extra) => {
        const path = expand(a.path);
        const lines = linesOf(extra.args, extra.kwargs);
        const cur = await readFile(path, 'utf8').catch(() => '');
        await writeFile(path, lines.map((l) => `${l}\n`).join('') + cur);
        return `Prepended ${lines.length} lines to "${path}"`;
      },
    }),
    touch: defineFunction({
      args: (z) =>
        z.object({
          name: str(z),
          atime: z.union([z.number(), z.string()]).nullish(),
          mtime: z.union([z.number(), z.string()]).nullish(),
        }),
      doc: `Just like the 'nix touch command: create a file if it does not exist, or update its times.${cli("salt '*' file.touch /var/log/emptyfile")}`,
      run: async (_ctx, a) => {
        const name = expand(a.name);
        const now = Date.now() / 1000;
        const t = (v: unknown) => (v === null || v === undefined || v === '' ? now : Number(v));
        if (Number.isNaN(t(a.atime)) || Number.isNaN(t(a.mtime)))
          throw new SALT_ERR_INVOCATION('atime and mtime must be integers');
        try {
          if (!(await lexists(name))) await writeFile(name, '', { flag: 'a' });
          await utimes(name, t(a.atime), t(a.mtime));
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(strerror(err));
        }
        return lexists(name);
      },
    }),
    mkdir: defineFunction({
      args: (z) => z.object({ dir_path: str(z), user: owner(z), group: owner(z), mode: owner(z) }),
      doc: `Ensure that a directory is available, its parents made too.${cli("salt '*' file.mkdir /opt/jetty/context")}`,
      run: async (_ctx, a) => {
        const dir = normalize(expand(a.dir_path));
        if (!(await isDir(dir))) {
          const missing: string[] = [];
          for (let d = dir; !(await isDir(d)) && d !== dirname(d); d = dirname(d)) missing.unshift(d);
          for (const d of missing) await mkdirPerms(d, a.user, a.group, a.mode ?? '0755');
        }
        return true;
      },
    }),
    makedirs: defineFunction({
      pyName: 'makedirs_',
      args: (z) => z.object({ path: str(z), user: owner(z), group: owner(z), mode: owner(z) }),
      doc: `Ensure that the directory containing this path is available (end the path with a slash for the path itself).${cli("salt '*' file.makedirs /opt/code/")}`,
      run: async (_ctx, a) => {
        const dir = normalize(pyDirname(expand(a.path)));
        if (await isDir(dir)) return `Directory '${dir}' already exists`;
        if (await lexists(dir)) return `The path '${dir}' already exists and is not a directory`;
        if (!isAbsolute(dir))
          throw new SALT_ERR_INVOCATION(
            `Recursive creation for path '${dir}' would result in an infinite loop. Please use an absolute path.`,
          );
        const missing: string[] = [];
        for (let d = dir; !(await isDir(d)); d = dirname(d)) missing.unshift(d);
        for (const d of missing) await mkdirPerms(d, a.user, a.group, a.mode ?? '0755');
        return null;
      },
    }),
    remove: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      varkw: true,
      doc: `Remove the named file or directory (recursively).${cli("salt '*' file.remove /tmp/foo")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION(`File path must be absolute: ${path}`);
        if (!(await lexists(path))) return false;
        try {
          await rm(path, { recursive: true, force: true });
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(`Could not remove '${path}': ${strerror(err)}`);
        }
        return true;
      },
    }),
    rename: defineFunction({
      args: (z) => z.object({ src: str(z), dst: str(z) }),
      doc: `Rename a file or directory.${cli("salt '*' file.rename /path/to/src /path/to/dst")}`,
      run: async (_ctx, a) => {
        const [src, dst] = [expand(a.src), expand(a.dst)];
        if (!isAbsolute(src)) throw new SALT_ERR_INVOCATION('File path must be absolute.');
        try {
          await rename(src, dst);
        } catch {
          throw new SALT_ERR_EXEC_COMMAND(`Could not rename '${src}' to '${dst}'`);
        }
        return true;
      },
    }),
    copy: defineFunction({
      args: (z) =>
        z.object({ src: str(z), dst: str(z), recurse: pyFlag(z, false), remove_existing: pyFlag(z, false) }),
      doc: `Copy a file or directory from source to dst (a directory needs recurse=True).${cli("salt '*' file.copy /path/to/src /path/to/dst")}`,
      run: async (_ctx, a) => {
        const [src, dst] = [expand(a.src), expand(a.dst)];
        if (!isAbsolute(src)) throw new SALT_ERR_INVOCATION('File path must be absolute.');
        if (!(await lexists(src))) throw new SALT_ERR_EXEC_COMMAND(`No such file or directory '${src}'`);
        const st = await statsOrThrow(src);
        try {
          if ((await isDir(dst)) || (await isDir(src))) {
            if (!a.recurse)
              throw new SALT_ERR_INVOCATION(
                'Cannot copy overwriting a directory without recurse flag set to true!',
              );
            if (a.remove_existing) await rm(dst, { recursive: true, force: true });
            await cp(src, dst, { recursive: true, verbatimSymlinks: true });
          } else await copyFile(src, dst);
        } catch (err) {
          if (err instanceof SALT_ERR_INVOCATION) throw err;
          throw new SALT_ERR_EXEC_COMMAND(`Could not copy '${src}' to '${dst}'`);
        }
        await chown(dst, st.uid, st.gid);
        await chmod(dst, Number.parseInt(st.mode, 8));
        return true;
      },
    }),
    move: defineFunction({
      args: (z) => z.object({ src: str(z), dst: str(z), disallow_copy_and_unlink: pyFlag(z, false) }),
      doc: `Move a file or directory.${cli("salt '*' file.move /path/to/src /path/to/dst")}`,
      run: async (_ctx, a) => {
        const [src, dst] = [expand(a.src), expand(a.dst)];
        if (!isAbsolute(src)) throw new SALT_ERR_INVOCATION('Source path must be absolute.');
        if (!isAbsolute(dst)) throw new SALT_ERR_INVOCATION('Destination path must be absolute.');
        try {
          await rename(src, (await isDir(dst)) ? join(dst, src.split('/').pop()!) : dst);
        } catch (err) {
          throw new SALT_ERR_EXEC_COMMAND(`Unable to move '${src}' to '${dst}': ${strerror(err)}`);
        }
        return { result: true, comment: `'${src}' moved to '${dst}'` };
      },
    }),
    symlink: defineFunction({
      args: (z) => z.object({ src: str(z), path: str(z), force: pyFlag(z, false), atomic: pyFlag(z, false) }),
      doc: `Create a symbolic link (symlink, soft link) to a file.${cli("salt '*' file.symlink /path/to/file /path/to/link")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION(`Link path must be absolute: ${path}`);
        if (await isLink(path)) {
          if (normalize(await readlink(path)) === normalize(a.src)) return true;
          if (!a.force && !a.atomic) throw new SALT_ERR_EXEC_COMMAND(`Found existing symlink: ${path}`);
        }
        if ((await lexists(path)) && !(await isLink(path)) && !a.force && !a.atomic)
          throw new SALT_ERR_EXEC_COMMAND(`Existing path is not a symlink: ${path}`);
        try {
          if (a.atomic) {
            const tmp = `${path}.${process.pid}.${Date.now()}`;
            await symlink(a.src, tmp);
            await rename(tmp, path);
            return true;
          }
          if (await lexists(path)) await rm(path);
          await symlink(a.src, path);
        } catch {
          throw new SALT_ERR_EXEC_COMMAND(`Could not create '${path}'`);
        }
        return true;
      },
    }),
    is_link: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Check if the path is a symbolic link.${cli("salt '*' file.is_link /path/to/link")}`,
      run: (_ctx, a) => isLink(expand(a.path)),
    }),
    readlink: defineFunction({
      args: (z) => z.object({ path: str(z), canonicalize: pyFlag(z, false) }),
      doc: `Return the path that a symlink points to (canonicalize=True: the final target).${cli("salt '*' file.readlink /path/to/link")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION(`Path to link must be absolute: ${path}`);
        if (!(await isLink(path))) throw new SALT_ERR_INVOCATION(`A valid link was not specified: ${path}`);
        return a.canonicalize ? realpath(path).catch(() => path) : readlink(path);
      },
    }),
    readdir: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      doc: `Return a list containing the contents of a directory, '.' and '..' first.${cli("salt '*' file.readdir /path/to/dir/")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!isAbsolute(path)) throw new SALT_ERR_INVOCATION('Dir path must be absolute.');
        if (!(await isDir(path))) throw new SALT_ERR_INVOCATION('A valid directory was not specified.');
        // os.listdir's order: the directory's own, not sorted (fs.readdir sorts)
        const names = ['.', '..'];
        for await (const entry of await opendir(path)) names.push(entry.name);
        return names;
      },
    }),
    search: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          pattern: z.string(),
          flags: z.unknown().default(8),
          bufsize: z.unknown().default(1),
          ignore_if_missing: pyFlag(z, false),
          multiline: pyFlag(z, false),
        }),
      doc: `Search for occurrences of a pattern in a file (a Python regular expression); True or False.${cli("salt '*' file.search /etc/crontab 'mymaintenance.sh'")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!(await isFile(path))) {
          if (a.ignore_if_missing) return false;
          throw new SALT_ERR_EXEC_COMMAND(`${path}: Path not found`);
        }
        return searchFile(path, a.pattern, a.multiline, a.flags);
      },
    }),
    contains: defineFunction({
      args: (z) => z.object({ path: str(z), text: str(z) }),
      doc: `Return True if the file at path contains text (stripped).${cli("salt '*' file.contains /etc/crontab 'mymaintenance.sh'")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!(await lexists(path))) return false;
        return (await readFile(path, 'utf8')).includes(a.text.trim());
      },
    }),
    replace: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          pattern: z.string(),
          repl: str(z),
          count: z.number().default(0),
          flags: z.unknown().default(8),
          bufsize: z.unknown().default(1),
          append_if_not_found: pyFlag(z, false),
          prepend_if_not_found: pyFlag(z, false),
          not_found_content: z.string().nullish(),
          backup: z.union([z.string(), z.literal(false)]).default('.bak'),
          dry_run: pyFlag(z, false),
          search_only: pyFlag(z, false),
          show_changes: pyFlag(z, true),
          ignore_if_missing: pyFlag(z, false),
          preserve_inode: pyFlag(z, true),
          backslash_literal: pyFlag(z, false),
        }),
      doc: `Replace occurrences of a pattern in a file; the diff of the change (show_changes=False: True/False).${cli("salt '*' file.replace /etc/httpd/httpd.conf pattern='LogLevel warn' repl='LogLevel info'")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (a.search_only) return (await isFile(path)) ? searchFile(path, a.pattern, false, a.flags) : false;
        const out = await replaceInFile(
          path,
          a.pattern,
          a.backslash_literal ? a.repl.replace(/\\/g, '\\\\') : a.repl,
          {
            count: a.count,
            flags: a.flags,
            appendIfNotFound: a.append_if_not_found,
            prependIfNotFound: a.prepend_if_not_found,
            notFoundContent: a.not_found_content,
            backup: a.backup,
            dryRun: a.dry_run,
            showChanges: a.show_changes,
            ignoreIfMissing: a.ignore_if_missing,
            preserveInode: a.preserve_inode,
          },
        );
        if (out === false) return a.show_changes ? '' : false;
        return out;
      },
    }),
    blockreplace: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          marker_start: z.string().default('#-- start managed zone --'),
          marker_end: z.string().default('#-- end managed zone --'),
          content: str(z).default(''),
          append_if_not_found: pyFlag(z, false),
          prepend_if_not_found: pyFlag(z, false),
          backup: z.union([z.string(), z.literal(false)]).default('.bak'),
          dry_run: pyFlag(z, false),
          show_changes: pyFlag(z, true),
          append_newline: pyFlag(z, false),
          insert_before_match: z.string().nullish(),
          insert_after_match: z.string().nullish(),
        }),
      doc: `Replace the content of a text block in a file, delimited by line markers; the diff (or True/False).${cli("salt '*' file.blockreplace /etc/hosts '#-- start managed zone foobar : DO NOT EDIT --' '#-- end managed zone foobar --' $'10.0.1.1 foo.foobar\\n10.0.1.2 bar.foobar' True")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        if (!(await lexists(path))) throw new SALT_ERR_INVOCATION(`File not found: ${path}`);
        const out = await blockReplace(path, {
          markerStart: a.marker_start,
          markerEnd: a.marker_end,
          content: a.content,
          appendIfNotFound: a.append_if_not_found,
          prependIfNotFound: a.prepend_if_not_found,
          insertBeforeMatch: a.insert_before_match,
          insertAfterMatch: a.insert_after_match,
          backup: a.backup,
          dryRun: a.dry_run,
          showChanges: a.show_changes,
          appendNewline: a.append_newline,
        });
        if (out === false) return a.show_changes ? '' : false;
        return out;
      },
    }),
    comment_line: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          regex: z.string(),
          char: z.string().default('#'),
          cmnt: pyFlag(z, true),
          backup: z.union([z.string(), z.literal(false)]).default('.bak'),
        }),
      doc: `Comment or uncomment the lines matching a regular expression; the diff, or False when none match.${cli("salt '*' file.comment_line '/etc/modules' '^pcspkr'")}`,
      run: async (_ctx, a) => {
        const path = await realpath(expand(a.path)).catch(() => expand(a.path));
        if (!(await isFile(path))) throw new SALT_ERR_INVOCATION(`File not found: ${path}`);
        return commentLine(path, a.regex, a.char, a.cmnt, a.backup);
      },
    }),
    psed: defineFunction({
      args: (z) =>
        z.object({
          path: str(z),
          before: z.string(),
          after: z.string(),
          limit: z.string().default(''),
          backup: z.string().default('.bak'),
          flags: z.string().default('gMS'),
          escape_all: pyFlag(z, false),
          multi: pyFlag(z, false),
        }),
      doc: `Make a simple edit to a file, in Python (like sed -i 's/before/after/flags').${cli("salt '*' file.psed /etc/httpd/httpd.conf 'LogLevel warn' 'LogLevel info'")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        const text = await readFile(path, 'utf8');
        if (a.backup) await copyFile(path, `${path}${a.backup}`);
        const flags = `${a.flags.includes('g') ? 'g' : ''}${a.flags.includes('I') || a.flags.includes('i') ? 'i' : ''}m`;
        const before = a.escape_all ? a.before.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : a.before;
        const limit = a.limit ? new RegExp(a.limit) : undefined;
        const re = new RegExp(before, flags);
        const out = (a.multi ? [text] : text.split(/(?<=\n)/)).map((line) =>
          !limit || limit.test(line) ? line.replace(re, a.after) : line,
        );
        await writeFile(path, out.join(''));
        return null;
      },
    }),
    find: defineFunction({
      args: (z) => z.object({ path: str(z) }),
      varargs: true,
      varkw: true,
      doc: `Approximate the Unix find(1) command: type, name, iname, regex, user, group, size, mtime, maxdepth, mindepth; print=path,name,size,type,mode,user,group,md5,mtime.${cli("salt '*' file.find / type=f name=\\*.bak size=+10m")}`,
      run: (_ctx, a, extra) => findFiles(expand(a.path), extra.args.map(String), extra.kwargs),
    }),
    get_user: defineFunction({
      args: (z) => z.object({ path: str(z), follow_symlinks: pyFlag(z, true) }),
      doc: `Return the user that owns a given file.${cli("salt '*' file.get_user /etc/passwd")}`,
      run: async (_ctx, a) => (await fileStats(expand(a.path), null, a.follow_symlinks))?.user ?? false,
    }),
    get_group: defineFunction({
      args: (z) => z.object({ path: str(z), follow_symlinks: pyFlag(z, true) }),
      doc: `Return the group that owns a given file.${cli("salt '*' file.get_group /etc/passwd")}`,
      run: async (_ctx, a) => (await fileStats(expand(a.path), null, a.follow_symlinks))?.group ?? false,
    }),
    get_uid: defineFunction({
      args: (z) => z.object({ path: str(z), follow_symlinks: pyFlag(z, true) }),
      doc: `Return the id of the user that owns a given file (-1 when missing).${cli("salt '*' file.get_uid /etc/passwd")}`,
      run: async (_ctx, a) => (await fileStats(expand(a.path), null, a.follow_symlinks))?.uid ?? -1,
    }),
    get_gid: defineFunction({
      args: (z) => z.object({ path: str(z), follow_symlinks: pyFlag(z, true) }),
      doc: `Return the id of the group that owns a given file (-1 when missing).${cli("salt '*' file.get_gid /etc/passwd")}`,
      run: async (_ctx, a) => (await fileStats(expand(a.path), null, a.follow_symlinks))?.gid ?? -1,
    }),
    get_mode: defineFunction({
      args: (z) => z.object({ path: str(z), follow_symlinks: pyFlag(z, true) }),
      doc: `Return the mode of a file.${cli("salt '*' file.get_mode /etc/passwd")}`,
      run: async (_ctx, a) => (await statsOrThrow(a.path, null, a.follow_symlinks)).mode,
    }),
    set_mode: defineFunction({
      args: (z) => z.object({ path: str(z), mode: str(z) }),
      doc: `Set the mode of a file; the new mode.${cli("salt '*' file.set_mode /etc/passwd 0644")}`,
      run: async (_ctx, a) => {
        const path = expand(a.path);
        const mode = a.mode.replace(/^[0Oo]+/, '') || '0';
        if (!(await lexists(path))) throw new SALT_ERR_EXEC_COMMAND(`${path}: File not found`);
        if (!/^[0-7]+$/.test(mode)) return `Invalid Mode ${mode}`;
        await chmod(path, Number.parseInt(mode, 8));
        return (await statsOrThrow(path)).mode;
      },
    }),
    chown: defineFunction({
      args: (z) => z.object({ path: str(z), user: ownerReq(z), group: ownerReq(z) }),
      doc: `Chown a file: None when done, else why not.${cli("salt '*' file.chown /etc/passwd root root")}`,
      run: (_ctx, a) => chownPath(expand(a.path), a.user, a.group),
    }),
    chgrp: defineFunction({
      args: (z) => z.object({ path: str(z), group: ownerReq(z) }),
      doc: `Change the group of a file.${cli("salt '*' file.chgrp /etc/passwd root")}`,
      run: async (_ctx, a) => {
        const s = await fileStats(expand(a.path));
        return chownPath(expand(a.path), s?.user ?? null, a.group);
      },
    }),
    user_to_uid: defineFunction({
      args: (z) => z.object({ user: ownerReq(z) }),
      doc: `Convert a user name to a uid ('' when unknown).${cli("salt '*' file.user_to_uid root")}`,
      run: (_ctx, a) => userToUid(a.user),
    }),
    group_to_gid: defineFunction({
      args: (z) => z.object({ group: ownerReq(z) }),
      doc: `Convert a group name to a gid ('' when unknown).${cli("salt '*' file.group_to_gid root")}`,
      run: (_ctx, a) => groupToGid(a.group),
    }),
    uid_to_user: defineFunction({
      args: (z) => z.object({ uid: z.union([z.number(), z.string()]) }),
      doc: `Convert a uid to a user name (the uid when unknown).${cli("salt '*' file.uid_to_user 0")}`,
      run: (_ctx, a) => uidToUser(Number(a.uid)),
    }),
    gid_to_group: defineFunction({
      args: (z) => z.object({ gid: z.union([z.number(), z.string()]) }),
      doc: `Convert a gid to a group name (the gid when unknown).${cli("salt '*' file.gid_to_group 0")}`,
      run: (_ctx, a) => gidToGroup(Number(a.gid)),
    }),
    get_diff: defineFunction({
      args: (z) =>
        z.object({
          file1: str(z),
          file2: str(z),
          saltenv: z.string().default('base'),
          show_filenames: pyFlag(z, true),
          show_changes: pyFlag(z, true),
          template: pyFlag(z, false),
          source_hash_file1: z.string().nullish(),
          source_hash_file2: z.string().nullish(),
        }),
      doc: `Return the unified diff of two files (local paths or salt:// URLs).${cli("salt '*' file.get_diff /home/fred/.vimrc salt://users/fred/.vimrc")}`,
      run: async (ctx, a) => {
        const fc = fileClient(ctx);
        const paths: string[] = [];
        const errors: string[] = [];
        for (const f of [a.file1, a.file2]) {
          const got = await fc.cacheFile(f, a.saltenv).catch(() => false as const);
          if (got) paths.push(got);
          else errors.push(`File ${f} not found`);
        }
        if (errors.length) throw new SALT_ERR_EXEC_COMMAND('Failed to cache one or more files');
        const [b1, b2] = await Promise.all(paths.map((p) => readFile(p)));
        if (b1!.equals(b2!)) return '';
        if (a.template && pyTruthy(await ctx.call('config.option', ['obfuscate_templates'])))
          return '<Obfuscated Template>';
        if (!a.show_changes) return '<show_changes=False>';
        return diffBuffers(b1!, b2!, a.show_filenames ? [paths[0]!, paths[1]!] : undefined);
      },
    }),
    ...managedFunctions,
    ...textFunctions,
    ...metaFunctions,
    ...miscFunctions,
    ...mknodFunctions,
    ...rmdirFunctions,
    ...checkFunctions,
    ...sysFunctions,
    // Salt's aliases (alias_function): the same functions under a second name
    list_backup: metaFunctions.list_backups,
    remove_backup: metaFunctions.delete_backup,
  },
});

function linesOf(args: readonly unknown[], kwargs: Readonly<Record<string, unknown>>): string[] {
  if ('args' in kwargs) {
    const v = kwargs.args;
    return (Array.isArray(v) ? v : [v]).map(String);
  }
  return args.map(String);
}

function strerror(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  const map: Record<string, string> = {
    ENOENT: 'No such file or directory',
    EACCES: 'Permission denied',
    EISDIR: 'Is a directory',
    ENOTDIR: 'Not a directory',
    EEXIST: 'File exists',
  };
  return (e.code && map[e.code]) || e.message;
}
