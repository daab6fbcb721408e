/**
 * The heart of `file.managed` (Salt's `file.get_managed`, `file.check_managed_changes`,
 * `file.check_file_meta`, `file.manage_file`, `file.get_diff` and
 * `salt.utils.files.copyfile`/`backup_minion`): fetch and render the source, predict the
 * changes under test, write the file atomically with an optional minion backup, then fix
 * owner and mode. Returns and comments are Salt's, word for word.
 */
import { randomBytes } from 'node:crypto';
import {
  chmod,
  chown,
  copyFile,
  mkdir,
  readFile,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { ExecContext } from '../kernel/index.js';
import { diffBuffers } from './_file-diff.js';
import { checkPerms, type Owner, type Ret } from './_file-perms.js';
import { FileError, fileClient, getSourceSum, localPath, schemeOf } from './_file-source.js';
import {
  fileStats,
  groupToGid,
  hashFile,
  isDir,
  isFile,
  isLink,
  normalizeMode,
  userToUid,
} from './_file-stat.js';
import { renderText } from './_file-template.js';
import { pyEncode } from './_py-encode.js';

const REMOTE = new Set(['salt', 'http', 'https', 'ftp', 'swift', 's3']);

export interface SourceSum {
  hsum?: string;
  hash_type?: string;
}

export interface ManagedSpec {
  name: string;
  template?: string | null;
  source?: string | null;
  sourceHash?: string | null;
  sourceHashName?: string | null;
  user?: Owner;
  group?: Owner;
  mode?: unknown;
  saltenv: string;
  context?: Record<string, unknown> | null;
  defaults?: Record<string, unknown> | null;
  skipVerify?: boolean;
  extra?: Record<string, unknown>;
}

/** A temp file beside nothing in particular (Salt's `mkstemp` under the system temp dir). */
async function tempFile(ctx: ExecContext, data: Buffer | string): Promise<string> {
  const dir = join(String(ctx.opts.cachedir ?? '/tmp'), 'tmp');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, `__salt.tmp.${randomBytes(6).toString('hex')}`);
  await writeFile(path, data, { mode: 0o600 });
  return path;
}

/**
 * Salt's `file.get_managed`: `[sfn, sourceSum, comment]`: the cached (and rendered) source,
 * its hash, and a non-empty comment when it cannot be had.
 */
export async function getManaged(ctx: ExecContext, s: ManagedSpec): Promise<[string, SourceSum, string]> {
  let sfn = '';
  let sum: SourceSum = {};
  const source = s.source;
  if (!source) return [sfn, sum, ''];
  const scheme = schemeOf(source);
  const local = scheme === 'file' || scheme === '';
  if (local) {
    sfn = localPath(source);
    if (!(await isFile(sfn)) && !(await isDir(sfn)))
      return ['', {}, `Local file source ${sfn} does not exist`];
  }
  const fc = fileClient(ctx);
  if (scheme === 'salt') {
    const h = await fc.hashFile(source, s.saltenv);
    if (!h || !('hsum' in h)) return ['', {}, `Source file ${source} not found in saltenv '${s.saltenv}'`];
    sum = { hsum: h.hsum, hash_type: h.hash_type };
  } else if (local && !s.sourceHash) {
    sum = { hsum: await hashFile(sfn), hash_type: 'sha256' };
  } else if (!s.skipVerify) {
    if (s.sourceHash) {
      try {
        sum = await getSourceSum(ctx, source, s.sourceHash, s.sourceHashName, s.saltenv);
      } catch (err) {
        return ['', {}, (err as Error).message];
      }
    } else {
      return [
        '',
        {},
        `Unable to verify upstream hash of source file ${source}, please set source_hash or set skip_verify to True`,
      ];
    }
  }
  if (s.template || REMOTE.has(scheme)) {
    if (!local) {
      try {
        sfn = (await fc.cacheFile(source, s.saltenv)) || '';
      } catch (err) {
        return ['', {}, `Failed to cache ${source}: ${(err as Error).message}`];
      }
    }
    if (!sfn || !(await isFile(sfn))) return [sfn, {}, `Source file '${source}' not found`];
    if (s.skipVerify && !s.template) sum = { hsum: await hashFile(sfn), hash_type: 'sha256' };
    if (s.template) {
      // the state's keywords first, then defaults and context over them (Salt's wrap_tmpl_func)
      const context = {
        ...(s.extra ?? {}),
        name: s.name,
        source,
        user: s.user ?? null,
        group: s.group ?? null,
        mode: s.mode ?? null,
        attrs: null,
        saltenv: s.saltenv,
        ...(s.defaults ?? {}),
        ...(s.context ?? {}),
      };
      let text: string;
      try {
        text = await renderText(ctx, fc, s.template, await readFile(sfn, 'utf8'), source, s.saltenv, context);
      } catch (err) {
        return [sfn, {}, (err as Error).message];
      }
      sfn = await tempFile(ctx, text);
      sum = { hsum: await hashFile(sfn), hash_type: 'sha256' };
    }
  }
  return [sfn, sum, ''];
}

/** Salt's `file.get_diff` between two local files, without file names. */
export async function getDiff(file1: string, file2: string): Promise<string> {
  const [a, b] = await Promise.all([readFile(file1), readFile(file2)]);
  return diffBuffers(a, b);
}

/** Salt's `file.check_file_meta`: what `manage_file` would change. */
export async function checkFileMeta(
  ctx: ExecContext,
  name: string,
  sfn: string,
  source: string | null | undefined,
  sum: SourceSum,
  user: Owner,
  group: Owner,
  mode: unknown,
  saltenv: string,
  contents: string | null | undefined,
  followSymlinks: boolean,
): Promise<Record<string, unknown>> {
  const changes: Record<string, unknown> = {};
  const l = await fileStats(name, sum.hash_type ?? null, followSymlinks);
  if (!l) return { newfile: name };
  if (sum.hsum && sum.hsum !== l.sum) {
    let cached = sfn;
    if (!cached && source) cached = (await fileClient(ctx).cacheFile(source, saltenv)) || '';
    if (cached) changes.diff = await getDiff(name, cached);
    else changes.sum = 'Checksum differs';
  }
  if (contents !== null && contents !== undefined) {
    const diff = diffBuffers(await readFile(name), Buffer.from(contents));
    if (diff) changes.diff = diff;
  }
  if (user !== null && user !== undefined && user !== l.user && user !== l.uid) changes.user = user;
  if (group !== null && group !== undefined && group !== l.group && group !== l.gid) changes.group = group;
  const m = normalizeMode(mode);
  if (m !== null && m !== normalizeMode(l.mode)) changes.mode = m;
  return changes;
}

/**
 * Salt's `file.check_managed_changes`: the changes `file.managed` would make, or
 * `[false, comment]` when the source cannot be had.
 */
export async function checkManagedChanges(
  ctx: ExecContext,
  s: ManagedSpec,
  contents: string | null | undefined,
  followSymlinks: boolean,
): Promise<Record<string, unknown> | [false, string]> {
  let sfn = '';
  let sum: SourceSum = {};
  if (contents === null || contents === undefined) {
    const [f, h, comment] = await getManaged(ctx, s);
    if (comment) return [false, comment];
    [sfn, sum] = [f, h];
  }
  return checkFileMeta(
    ctx,
    s.name,
    sfn,
    s.source,
    sum,
    s.user,
    s.group,
    s.mode,
    s.saltenv,
    contents,
    followSymlinks,
  );
}

/** The `backup_mode` in effect: the state's `backup`, else the minion's option (Salt's `config.backup_mode`). */
export function backupMode(ctx: ExecContext, backup: string | null | undefined): string {
  if (backup) return backup;
  const m = ctx.opts.backup_mode;
  return typeof m === 'string' ? m : '';
}

function stamp(now = new Date()): string {
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  const micros = String(now.getTime() * 1000 + Math.floor(Math.random() * 1000)).slice(-6);
  return `${days[now.getDay()]}_${months[now.getMonth()]}_${p(now.getDate())}_${p(now.getHours())}:${p(now.getMinutes())}:${p(now.getSeconds())}_${micros}_${now.getFullYear()}`;
}

/** Salt's `backup_minion`: a copy of `path` under `<cachedir>/file_backup/<dir>/<name>_<stamp>`. */
export async function backupMinion(path: string, cachedir: string): Promise<string> {
  const st = await stat(path);
  const bk = join(cachedir, 'file_backup', dirname(path).slice(1), `${basename(path)}_${stamp()}`);
  await mkdir(dirname(bk), { recursive: true });
  await copyFile(path, bk);
  await chown(bk, st.uid, st.gid);
  await chmod(bk, st.mode & 0o7777);
  return bk;
}

/**
 * Salt's `salt.utils.files.copyfile`: `source` onto `dest` through a temp file beside it, the
 * old owner and mode kept, a minion backup first when `backup_mode` says so.
 */
export async function copyfileAtomic(
  ctx: ExecContext,
  source: string,
  dest: string,
  backup: string,
): Promise<void> {
  if (!(await isFile(source))) throw new FileError(`[Errno 2] No such file or directory: ${source}`);
  if (!(await isDir(dirname(dest)))) throw new FileError(`[Errno 2] No such file or directory: ${dest}`);
  const tgt = join(dirname(dest), `${basename(dest)}${randomBytes(4).toString('hex')}`);
  await copyFile(source, tgt);
  await chmod(tgt, 0o600);
  const mode = backupMode(ctx, backup);
  if ((mode === 'minion' || mode === 'both') && (await isFile(dest)))
    await backupMinion(dest, String(ctx.opts.cachedir ?? '/var/cache/salt/minion'));
  const old = await stat(dest).catch(() => undefined);
  try {
    await rename(tgt, dest);
  } catch (err) {
    await rm(tgt, { force: true });
    throw err;
  }
  if (old) {
    await chown(dest, old.uid, old.gid);
    await chmod(dest, old.mode & 0o7777);
  }
}

/** Salt's `file.makedirs_` for the parent folders of `path`, with owner and mode. */
export async function makeParents(
  path: string,
  user: Owner,
  group: Owner,
  mode: string | null,
): Promise<void> {
  const dir = dirname(path);
  const missing: string[] = [];
  for (let d = dir; !(await isDir(d)); d = dirname(d)) {
    missing.unshift(d);
    if (d === dirname(d)) break;
  }
  for (const d of missing) {
    await mkdir(d, mode ? { mode: Number.parseInt(mode, 8) } : {});
    if (mode) await chmod(d, Number.parseInt(mode, 8));
    const uid = user ? userToUid(user) : -1;
    const gid = group ? groupToGid(group) : -1;
    if ((uid !== '' && uid !== -1) || (gid !== '' && gid !== -1))
      await chown(d, uid === '' ? -1 : uid, gid === '' ? -1 : gid);
  }
}

/** The directory mode Salt derives from a file mode for `makedirs` (each non-zero digit gets `x`). */
export function dirModeFor(dirMode: unknown, mode: string | null): string | null {
  if (dirMode !== null && dirMode !== undefined) return normalizeMode(dirMode);
  if (mode === null) return null;
  return mode
    .slice(-3)
    .split('')
    .map((c) => (c === '0' ? c : String(Number(c) | 1)))
    .join('');
}

export interface ManageOptions {
  sfn: string;
  source: string | null;
  sum: SourceSum;
  user: Owner;
  group: Owner;
  mode: unknown;
  saltenv: string;
  backup: string;
  makedirs: boolean;
  showChanges: boolean;
  contents: string | null;
  dirMode: unknown;
  followSymlinks: boolean;
  skipVerify: boolean;
  test: boolean;
  /** Python codec name for `contents` (Salt's `encoding`), with its `encoding_errors` handler. */
  encoding?: string | null;
  encodingErrors?: string;
}

/** The bytes `contents` is written as: UTF-8, or `encoding` as Python encodes. */
function contentBytes(contents: string, o: ManageOptions): Buffer {
  return o.encoding ? pyEncode(contents, o.encoding, o.encodingErrors) : Buffer.from(contents);
}

function error(ret: Ret, msg: string): Ret {
  ret.result = false;
  ret.comment = msg;
  return ret;
}

/** Salt's `file.manage_file`: writes `name` from the cached source or `contents`, then owner and mode. */
export async function manageFile(
  ctx: ExecContext,
  name: string,
  retIn: Ret | null,
  o: ManageOptions,
): Promise<Ret> {
  const ret: Ret = retIn ?? { name, changes: {}, comment: '', result: true };
  const fc = fileClient(ctx);
  let { sfn } = o;
  let sum: SourceSum = { ...o.sum };
  if (sum.hsum) sum.hsum = sum.hsum.toLowerCase();
  const checkWeb = Boolean(o.source && schemeOf(o.source) !== 'salt' && !o.skipVerify);
  const mode = normalizeMode(o.mode);
  const fetchSource = async () => {
    if (!sfn && o.source) sfn = (await fc.cacheFile(o.source, o.saltenv)) || '';
    return sfn;
  };
  if (o.source && !sfn) {
    if (!(await fetchSource())) return error(ret, `Source file '${o.source}' not found`);
    sum = { hash_type: sum.hash_type ?? 'sha256', hsum: await hashFile(sfn, sum.hash_type ?? 'sha256') };
  }
  const exists = (await isFile(name)) || (await isLink(name));
  if (exists) {
    const link = await isLink(name);
    const real = link && o.followSymlinks ? await realpathOf(name) : name;
    const nameSum =
      o.source && !(link && !o.followSymlinks)
        ? await hashFile(real, sum.hash_type ?? 'sha256').catch(() => null)
        : null;
    if (o.source && (nameSum === null || sum.hsum !== nameSum)) {
      if (!(await fetchSource())) return error(ret, `Source file '${o.source}' not found`);
      if (checkWeb) {
        const dl = await hashFile(sfn, sum.hash_type ?? 'sha256');
        if (dl !== sum.hsum) {
          ret.comment = `Specified ${sum.hash_type} checksum for ${o.source} (${sum.hsum}) does not match actual checksum (${dl}). If the 'source_hash' value refers to a remote file with multiple possible matches, then it may be necessary to set 'source_hash_name'.`;
          ret.result = false;
          return ret;
        }
      }
      if (!o.showChanges) ret.changes.diff = '<show_changes=False>';
      else {
        const diff = await getDiff(real, sfn);
        if (diff) ret.changes.diff = diff;
      }
      try {
        await copyfileAtomic(ctx, sfn, real, o.backup);
      } catch (err) {
        return error(ret, `Failed to commit change: ${(err as Error).message}`);
      }
    }
    if (o.contents !== null) {
      const data = contentBytes(o.contents, o);
      const diff = o.showChanges
        ? diffBuffers(await readFile(real), data)
        : (await readFile(real)).equals(data)
          ? ''
          : '<show_changes=False>';
      if (diff) {
        ret.changes.diff = diff;
        const tmp = await tempFile(ctx, data);
        try {
          await copyfileAtomic(ctx, tmp, real, o.backup);
        } catch (err) {
          return error(ret, `Failed to commit change: ${(err as Error).message}`);
        } finally {
          await rm(tmp, { force: true });
        }
      }
    }
    if (link && !o.followSymlinks) {
      if (!(await fetchSource())) return error(ret, `Source file '${o.source}' not found`);
      await rm(name);
      await copyfileAtomic(ctx, sfn, name, o.backup);
      ret.changes.diff = 'Replace symbolic link with regular file';
    }
    const [out] = await checkPerms(name, ret, o.user, o.group, mode, o.followSymlinks, o.test);
    if (Object.keys(out.changes).length) out.comment = `File ${name} updated`;
    else if (out.result) out.comment = `File ${name} is in the correct state`;
    await cleanTmp(ctx, sfn);
    return out;
  }
  // the target does not exist
  const parentOk = await isDir(dirname(name));
  if (o.source) {
    if (!(await fetchSource())) return error(ret, `Source file '${o.source}' not found`);
    if (checkWeb) {
      const dl = await hashFile(sfn, sum.hash_type ?? 'sha256');
      if (dl !== sum.hsum) {
        ret.comment = `Specified ${sum.hash_type} checksum for ${name} (${sum.hsum}) does not match actual checksum (${dl})`;
        ret.result = false;
        return ret;
      }
    }
    ret.changes.diff = 'New file';
  }
  if (!parentOk) {
    if (!o.makedirs) {
      delete ret.changes.diff;
      return error(ret, 'Parent directory not present');
    }
    await makeParents(name, o.user, o.group, dirModeFor(o.dirMode, mode));
  }
  if (!o.source) {
    if (!o.test) {
      await writeFile(name, '', { flag: 'a', mode: mode ? 0o600 : 0o666 });
      if (o.contents === null) {
        ret.changes.new = `file ${name} created`;
        ret.comment = 'Empty file';
      } else ret.changes.diff = 'New file';
    }
  }
  if (o.contents !== null) {
    const tmp = await tempFile(ctx, contentBytes(o.contents, o));
    await copyfileAtomic(ctx, tmp, name, o.backup);
    await rm(tmp, { force: true });
  } else if (sfn) {
    await copyfileAtomic(ctx, sfn, name, o.backup);
    await cleanTmp(ctx, sfn);
  }
  const finalMode = mode ?? (0o666 & ~process.umask()).toString(8).padStart(4, '0');
  const [out] = await checkPerms(name, ret, o.user, o.group, finalMode, true, o.test);
  if (!out.comment) out.comment = `File ${name} updated`;
  if (o.test) out.comment = `File ${name} not updated`;
  else if (!Object.keys(out.changes).length && out.result)
    out.comment = `File ${name} is in the correct state`;
  return out;
}

async function realpathOf(path: string): Promise<string> {
  return realpath(path);
}

/** Removes a rendered temp file (Salt's `__clean_tmp`), never a cached source. */
async function cleanTmp(ctx: ExecContext, sfn: string): Promise<void> {
  const tmpdir = join(String(ctx.opts.cachedir ?? '/tmp'), 'tmp');
  if (sfn.startsWith(`${tmpdir}/`)) await rm(sfn, { force: true });
}
