/**
 * `archive.extracted` once the archive is at hand (Salt's second half of `extracted`): list it,
 * decide whether extraction is needed (missing or wrong-typed paths, `overwrite`,
 * `source_hash_update`), predict under test=True, clean, extract with tar/unzip, enforce
 * `user`/`group`, and word the result as Salt does.
 */
import { lchown, lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { extractTar } from '../modules/_archive-read.js';
import { shlexSplit } from '../modules/_shlex.js';
import type { StateContext, StateReturn } from '../plugins/states/index.js';
import { type Checksum, readChecksum } from './_archive-checksum.js';
import { isExecError } from './_git-common.js';

export interface ExtractPlan {
  ctx: StateContext;
  ret: StateReturn;
  name: string;
  sourceMatch: string;
  cached: string;
  isLocal: boolean;
  format: string;
  options: string | null;
  listOptions: unknown;
  stripComponents: number | null;
  ifMissing: string | null;
  enforceOn: string | null;
  user: string | null;
  group: string | null;
  uid: number;
  gid: number;
  sourceSum: Checksum | null;
  sourceHashUpdate: boolean;
  skipVerify: boolean;
  existingSum: Checksum | null;
  cachedir: string;
  hashType: string;
  enforceToplevel: boolean;
  clean: boolean;
  cleanParent: boolean;
  force: boolean;
  overwrite: boolean;
  useCmdUnzip: boolean;
  password: unknown;
  extractPerms: boolean;
  trim: number | false;
  trimGiven: unknown;
}

type Listing = Record<
  'dirs' | 'files' | 'links' | 'top_level_dirs' | 'top_level_files' | 'top_level_links',
  string[]
>;

const redact = (s: string) => s.replace(/(https?):\/\/.*@/gi, '$1://<redacted>@');
const errMsg = (err: unknown) => (err instanceof Error ? err.message : String(err));
const pyVal = (v: unknown) =>
  v === true ? 'True' : v === false ? 'False' : v === null || v === undefined ? 'None' : String(v);

async function lmode(p: string): Promise<{ mode?: 'dir' | 'link' | 'file'; code?: string }> {
  try {
    const s = await lstat(p);
    return { mode: s.isSymbolicLink() ? 'link' : s.isDirectory() ? 'dir' : 'file' };
  } catch (err) {
    return { code: (err as NodeJS.ErrnoException).code ?? 'EIO' };
  }
}

/** Removes a path; false when there was nothing to remove (Salt's `rm_rf` raising ENOENT). */
async function rmIfThere(p: string): Promise<boolean> {
  const bare = p.replace(/\/+$/, '');
  if ((await lmode(bare)).mode === undefined) return false;
  await rm(bare, { recursive: true, force: true });
  return true;
}

function explain(ret: StateReturn, hashTrigger: boolean, contentsMissing: boolean): void {
  if (hashTrigger) ret.comment += ', due to source_hash update';
  else if (contentsMissing) ret.comment += ', due to absence of one or more files/dirs';
}

export async function extractAndReport(p: ExtractPlan): Promise<StateReturn> {
  const { ctx, ret, name } = p;
  const test = ctx.test;
  let contents: Listing | null;
  try {
    contents = (await ctx.call('archive.list', [p.cached], {
      archive_format: p.format,
      ...(p.listOptions ? { options: p.listOptions } : {}),
      ...(p.stripComponents ? { strip_components: p.stripComponents } : {}),
      clean: false,
      verbose: true,
    })) as Listing;
  } catch (err) {
    if (!isExecError(err)) throw err;
    const errors: string[] = [];
    if (!p.ifMissing) errors.push("'if_missing' must be set");
    if (!p.enforceOn && (p.user || p.group))
      errors.push("Ownership cannot be managed without setting 'enforce_ownership_on'.");
    let msg = errMsg(err);
    if (errors.length > 0) {
      msg += '\n\n';
      msg +=
        p.format === 'tar'
          ? "If the source archive is a tar archive compressed using a compression type not natively supported by the tar command, then setting the 'list_options' argument may allow the contents to be listed. Otherwise, if Salt is unable to determine the files/directories in the archive, the following workaround(s) would need to be used for this state to proceed"
          : 'The following workarounds must be used for this state to proceed';
      msg += ` (assuming the source file is a valid ${p.format} archive):\n`;
      for (const e of errors) msg += `\n- ${e}`;
    }
    ret.comment = msg;
    return ret;
  }
  if (p.enforceToplevel && (contents.top_level_dirs.length > 1 || contents.top_level_files.length > 0)) {
    ret.comment = `Archive does not have a single top-level directory. To allow this archive to be extracted, set 'enforce_toplevel' to False. To avoid a '${p.format}-bomb' it may also be advisable to set a top-level directory by adding it to the 'name' value (for example, setting 'name' to ${path.join(name, 'some_dir')} instead of ${name}).`;
    return ret;
  }
  if (p.clean && p.cleanParent) {
    ret.comment = "Only one of 'clean' and 'clean_parent' can be set to True";
    ret.result = false;
    return ret;
  }
  let needed = p.overwrite;
  let contentsMissing = false;
  const ifMissingExists = p.ifMissing !== null && (await lmode(p.ifMissing)).mode !== undefined;
  if (!ifMissingExists) {
    const wrong: string[] = [];
    const checks: Array<[string[], (m: string) => boolean]> = [
      [contents.dirs, (m) => m === 'dir'],
      [contents.files, (m) => m === 'file'],
      [contents.links, (m) => m === 'link'],
    ];
    for (const [list, ok] of checks) {
      for (const rel of list) {
        const got = await lmode(path.join(name, rel).replace(/\/+$/, ''));
        if (got.mode !== undefined) {
          if (!ok(got.mode)) wrong.push(rel);
        } else if (got.code === 'ENOENT') {
          needed = true;
          contentsMissing = true;
        } else if (got.code !== 'ENOTDIR') {
          ret.comment = `[Errno] ${got.code}: '${path.join(name, rel)}'`;
          return ret;
        }
      }
    }
    if (wrong.length > 0) {
      const paths = `\n\n${wrong.map((x) => `- ${x}`).join('\n')}`;
      ret.comment = `The below paths (relative to ${name}) exist, but are the incorrect type (file instead of directory, symlink instead of file, etc.).`;
      if (test && p.clean) {
        ret.result = null;
        ret.comment += ` Since the 'clean' option is enabled, the destination paths would be cleared and the archive would be extracted.${paths}`;
        return ret;
      }
      if (test && p.cleanParent) {
        ret.result = null;
        ret.comment +=
          " Since the 'clean_parent' option is enabled, the destination parent directory would be removed first and then re-created and the archive would be extracted";
        return ret;
      }
      if (!p.clean) {
        if (!p.force) {
          ret.comment += ` To proceed with extraction, set 'force' to True. Note that this will remove these paths before extracting.${paths}`;
          return ret;
        }
        for (const rel of wrong) {
          const full = path.join(name, rel);
          await rm(full.replace(/\/+$/, ''), { recursive: true, force: true });
          const removed = (ret.changes.removed as string[] | undefined) ?? [];
          removed.push(full);
          ret.changes.removed = removed;
          needed = true;
        }
      }
    }
  }
  let hashTrigger = false;
  if (!needed && p.sourceHashUpdate && p.existingSum !== null) {
    const now = await readChecksum(p.cachedir, p.cached, p.existingSum.hash_type);
    if (!now || now.hsum !== p.existingSum.hsum) {
      needed = true;
      hashTrigger = true;
    }
  }
  let createdDestdir = false;
  let files: string[] | string = [];
  if (needed) {
    if (p.isLocal && p.sourceSum && !p.skipVerify) {
      const ok = await ctx.call('file.check_hash', [
        p.sourceMatch,
        `${p.sourceSum.hash_type}=${p.sourceSum.hsum}`,
      ]);
      ret.result = ok === true;
      if (!ok) {
        ret.comment = `${redact(p.sourceMatch)} does not match the desired source_hash ${p.sourceSum.hsum}`;
        return ret;
      }
    }
    if (test) {
      ret.result = null;
      ret.comment = `Archive ${redact(p.sourceMatch)} would be extracted to ${name}`;
      if (p.clean) ret.comment += ', after cleaning destination path(s)';
      explain(ret, hashTrigger, contentsMissing);
      return ret;
    }
    if (p.cleanParent && (await rmIfThere(name))) {
      ret.changes.removed ??= `Directory ${name} was removed prior to the extraction`;
    }
    if (p.clean) {
      for (const rel of [...contents.top_level_dirs, ...contents.top_level_files]) {
        const full = path.join(name, rel);
        if (!(await rmIfThere(full))) continue;
        const removed = (ret.changes.removed as string[] | undefined) ?? [];
        removed.push(full);
        ret.changes.removed = removed;
      }
    }
    if ((await lmode(name)).mode !== 'dir') {
      await ctx.state('file.directory', { name, user: p.user, makedirs: true }).catch(async () => {
        await mkdir(name, { recursive: true });
      });
      createdDestdir = true;
    }
    try {
      files = await unpack(p);
    } catch (err) {
      if (err instanceof ExtractFailed) {
        ret.result = false;
        ret.changes = err.changes;
        return ret;
      }
      if (!isExecError(err)) throw err;
      ret.comment = errMsg(err);
      return ret;
    }
  }
  const { missing, failed } = await enforceOwnership(p, contents);
  if (needed) {
    if (files.length > 0) {
      if (createdDestdir) ret.changes.directories_created = [name];
      ret.changes.extracted_files = files;
      ret.comment = `${redact(p.sourceMatch)} extracted to ${name}`;
      explain(ret, hashTrigger, contentsMissing);
      ret.comment += `. Output was trimmed to ${pyVal(p.trim === false ? p.trimGiven : p.trim)} number of lines`;
      ret.result = true;
    } else {
      ret.result = false;
      ret.comment = `No files were extracted from ${redact(p.sourceMatch)}`;
    }
  } else {
    ret.result = true;
    ret.comment = ifMissingExists ? `${p.ifMissing} exists` : 'All files in archive are already present';
    if (test && ret.changes['updated ownership']) {
      ret.result = null;
      ret.comment += '. Ownership would be updated on one or more files/directories.';
    }
  }
  if (missing.length > 0) {
    if (!p.ifMissing) ret.result = false;
    ret.comment += '\n\nWhile trying to enforce user/group ownership, the following paths were missing:\n';
    for (const m of missing) ret.comment += `\n- ${m}`;
  }
  if (failed.length > 0) {
    ret.result = false;
    ret.comment +=
      '\n\nWhile trying to enforce user/group ownership, Salt was unable to change ownership on the following paths:\n';
    for (const f of failed) ret.comment += `\n- ${f}`;
  }
  return ret;
}

class ExtractFailed extends Error {
  constructor(readonly changes: StateReturn['changes']) {
    super('extraction failed');
  }
}

async function unpack(p: ExtractPlan): Promise<string[] | string> {
  const { ctx, name } = p;
  if (p.format === 'zip') {
    const kw: Record<string, unknown> = { trim_output: p.trim === false ? false : p.trim };
    if (p.options) kw.options = p.options;
    if (p.password !== null) kw.password = p.password;
    if (p.useCmdUnzip) return (await ctx.call('archive.cmd_unzip', [p.cached, name], kw)) as string[];
    return (await ctx.call('archive.unzip', [p.cached, name], {
      ...kw,
      extract_perms: p.extractPerms,
    })) as string[];
  }
  if (p.options === null) {
    const names = await extractTar(ctx, p.cached, name);
    return p.trim === false ? names : names.slice(0, p.trim);
  }
  const opts = shlexSplit(p.options).filter((x) => !['v', '-v', '--verbose'].includes(x));
  let short = 'xv';
  const long: string[] = [];
  opts.forEach((opt, i) => {
    if (opt.startsWith('-') || i > 0) long.push(opt);
    else short += opt.replaceAll('x', '').replaceAll('f', '');
  });
  const cmd = ['tar', short, ...long, '-f', p.cached];
  const r = (await ctx.call('cmd.run_all', [cmd], { cwd: name, python_shell: false })) as {
    retcode: number;
    stdout: string;
  };
  if (r.retcode !== 0) throw new ExtractFailed(r);
  let files = r.stdout === '' ? [] : r.stdout.split('\n');
  if (p.trim !== false) files = files.slice(0, p.trim);
  return files.length > 0 ? files : 'no tar output so far';
}

async function enforceOwnership(
  p: ExtractPlan,
  contents: Listing,
): Promise<{ missing: string[]; failed: string[] }> {
  const missing: string[] = [];
  const failed: string[] = [];
  if (!p.user && !p.group) return { missing, failed };
  const { ctx, ret, name } = p;
  let dirs: string[] = [];
  let files: string[] = [];
  if (p.enforceOn) {
    if ((await lmode(p.enforceOn)).mode === 'dir') dirs = [p.enforceOn];
    else files = [p.enforceOn];
  } else {
    dirs = contents.top_level_dirs;
    files = [...contents.top_level_files, ...contents.top_level_links];
  }
  const recurse = [...(p.user ? ['user'] : []), ...(p.group ? ['group'] : [])];
  for (const d of dirs) {
    const full = path.join(name, d);
    if ((await lmode(full)).mode !== 'dir') {
      if (!ctx.test) missing.push(full);
      continue;
    }
    const r = await ctx.state('file.directory', { name: full, user: p.user, group: p.group, recurse });
    if (r.changes && Object.keys(r.changes).length > 0) ret.changes['updated ownership'] = true;
    if (r.result === false) failed.push(full);
  }
  for (const f of files) {
    const full = path.join(name, f);
    let st: Awaited<ReturnType<typeof lstat>>;
    try {
      st = await lstat(full);
    } catch (err) {
      if (!ctx.test) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') missing.push(full);
        failed.push(full);
      }
      continue;
    }
    if ((p.uid !== -1 && p.uid !== st.uid) || (p.gid !== -1 && p.gid !== st.gid)) {
      if (ctx.test) ret.changes['updated ownership'] = true;
      else {
        try {
          await lchown(full, p.uid === -1 ? st.uid : p.uid, p.gid === -1 ? st.gid : p.gid);
          ret.changes['updated ownership'] = true;
        } catch {
          failed.push(f);
        }
      }
    }
  }
  return { missing, failed };
}
