/**
 * Reading archives with the system's programs, as Salt's `archive` module reads them with
 * Python's tarfile/zipfile: the members of a tar (`tar -tv`, any compression GNU tar detects)
 * or zip (`unzip -Z`) archive, split into dirs, files and links, and whether a zip is encrypted.
 */
import { type ExecContext, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { which } from './_which.js';

export interface Members {
  dirs: string[];
  files: string[];
  links: string[];
}

interface RunAll {
  retcode: number;
  stdout: string;
  stderr: string;
}

const runAll = async (ctx: ExecContext, argv: string[]): Promise<RunAll> =>
  (await ctx.call('cmd.run_all', [argv], {
    python_shell: false,
    ignore_retcode: true,
    output_loglevel: 'quiet',
  })) as RunAll;

/** `guess_archive_type`: tar, zip or rar from the file name, else null. */
export function guessArchiveType(name: string): 'tar' | 'zip' | 'rar' | null {
  const n = name.toLowerCase();
  const tars = ['tar', 'tar.gz', 'tgz', 'tar.bz2', 'tbz2', 'tbz', 'tar.xz', 'txz', 'tar.lzma', 'tlz'];
  if (tars.some((e) => n.endsWith(`.${e}`))) return 'tar';
  if (n.endsWith('.zip')) return 'zip';
  if (n.endsWith('.rar')) return 'rar';
  return null;
}

// mode, owner/group, size, date, time, name
const TAR_LINE = /^(\S)\S*\s+\S+\s+\S+\s+\S+\s+\S+\s(.*)$/;

/** The members of a tar archive; dirs end in `/`, links are symlinks only (hard links are files). */
export async function tarMembers(ctx: ExecContext, name: string, cached: string): Promise<Members> {
  const r = await runAll(ctx, ['tar', '--list', '--verbose', '--quoting-style=literal', '-f', cached]);
  if (r.retcode !== 0)
    throw new SALT_ERR_EXEC_COMMAND(
      `Unable to list contents of ${name}. If this is an XZ-compressed tar archive, install XZ Utils to enable listing its contents. If it is compressed using something other than XZ, it may be necessary to specify CLI options to decompress the archive. See the documentation for details.`,
    );
  const out: Members = { dirs: [], files: [], links: [] };
  for (const line of r.stdout.split('\n')) {
    const m = TAR_LINE.exec(line);
    if (!m) continue;
    const type = m[1] as string;
    let path = m[2] as string;
    if (type === 'l') out.links.push(path.replace(/ -> .*$/, ''));
    else if (type === 'd') out.dirs.push(path.endsWith('/') ? path : `${path}/`);
    else {
      if (type === 'h') path = path.replace(/ link to .*$/, '');
      out.files.push(path);
    }
  }
  return out;
}

// mode, version, os, size, text/binary+extra, method, date, time, name
const ZIP_LINE = /^([-dlbcps][-rwxsStTah]{5,9})\s+\S+\s+\S+\s+\d+\s+(\S+)\s+\S+\s+\S+\s+\S+\s(.*)$/;

interface ZipEntry {
  mode: string;
  encrypted: boolean;
  path: string;
}

async function zipEntries(ctx: ExecContext, name: string, cached: string): Promise<ZipEntry[]> {
  const r = await runAll(ctx, ['unzip', '-Z', cached]);
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`${name} is not a ZIP file`);
  const out: ZipEntry[] = [];
  for (const line of r.stdout.split('\n')) {
    const m = ZIP_LINE.exec(line);
    if (m) out.push({ mode: m[1] as string, encrypted: /^[TB]/.test(m[2] as string), path: m[3] as string });
  }
  return out;
}

/** The members of a zip archive, as Salt's `_list_zip` sorts them out (parents of files are dirs). */
export async function zipMembers(ctx: ExecContext, name: string, cached: string): Promise<Members> {
  const dirs = new Set<string>();
  const files: string[] = [];
  const links: string[] = [];
  for (const e of await zipEntries(ctx, name, cached)) {
    if (e.mode.startsWith('l')) links.push(e.path);
    else if (e.mode.startsWith('d') || e.path.endsWith('/')) dirs.add(e.path);
    else files.push(e.path);
  }
  for (const f of [...files]) {
    const at = f.lastIndexOf('/');
    if (at < 0) continue;
    const dir = f.slice(0, at + 1);
    dirs.add(dir);
    const i = files.indexOf(dir);
    if (i >= 0) files.splice(i, 1);
  }
  return { dirs: [...dirs], files, links };
}

/** The names in a zip archive in its order (Python's `namelist()`). */
export async function zipNames(ctx: ExecContext, name: string, cached: string): Promise<string[]> {
  return (await zipEntries(ctx, name, cached)).map((e) => e.path);
}

export async function zipIsEncrypted(ctx: ExecContext, name: string, cached: string): Promise<boolean> {
  return (await zipEntries(ctx, name, cached)).some((e) => e.encrypted);
}

/** Salt's `_trim_files`: at most `trim` names (100 for True), then a note. */
export function trimFiles(files: string[], trim: unknown): string[] {
  if (trim === false || trim === undefined || trim === null) return files;
  const count = trim === true ? 100 : Number(trim);
  if (files.length <= count) return files;
  return [...files.slice(0, count), `List trimmed after ${count} files.`];
}

/** Unpacks a tar archive into `dest` with the tar program; the member names as tarfile's `getnames()`. */
export async function extractTar(ctx: ExecContext, cached: string, dest: string): Promise<string[]> {
  if (!which('tar'))
    throw new SALT_ERR_EXEC_COMMAND('tar command not available, it might not be installed on minion');
  const r = (await ctx.call('cmd.run_all', [['tar', '-x', '-v', '--quoting-style=literal', '-f', cached]], {
    python_shell: false,
    cwd: dest,
  })) as { retcode: number; stdout: string; stderr: string };
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(r.stderr || r.stdout);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((n) => (n.length > 1 ? n.replace(/\/+$/, '') : n));
}
