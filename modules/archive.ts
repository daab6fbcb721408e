/**
 * Salt's `archive` execution module (`salt/modules/archive.py`), the part `archive.extracted`
 * needs and users call: `list` (verbose: dirs, files, links and the top level), `is_encrypted`,
 * `tar`, `unzip`, `cmd_unzip`, and `zip`, `gzip`, `gunzip` (`_archive-pack.ts`), `cmd_zip`, `rar`, `unrar`
 * (`_archive-cmd.ts`). Archives are read and unpacked with the system's `tar` and
 * `unzip` programs (Salt uses Python's tarfile/zipfile for some of these; the results are the same).
 */
import {
  defineFunction,
  defineModule,
  type ExecContext,
  SALT_ERR_EXEC_COMMAND,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { archiveCmdFunctions } from './_archive-cmd.js';
import { gzipCall, zipSources } from './_archive-pack.js';
import {
  guessArchiveType,
  type Members,
  tarMembers,
  trimFiles,
  zipIsEncrypted,
  zipMembers,
  zipNames,
} from './_archive-read.js';
import { pyFlag } from './_coerce.js';
import { shlexSplit } from './_shlex.js';

async function cache(
  ctx: ExecContext,
  name: string,
  saltenv: string,
  sourceHash?: string | null,
  useEtag = false,
): Promise<string> {
  const kw: Record<string, unknown> = { saltenv, use_etag: useEtag };
  if (sourceHash) kw.source_hash = sourceHash;
  const got = await ctx.call('cp.cache_file', [name], kw);
  if (typeof got !== 'string' || got === '') throw new SALT_ERR_EXEC_COMMAND(`Failed to cache ${name}`);
  return got;
}

function stripComponents(m: Members, n: number): Members {
  const strip = (list: string[]) =>
    list
      .map((p) => {
        const parts = p.split('/');
        return parts.length > n ? parts.slice(n).join('/') : '';
      })
      .filter(Boolean)
      .sort();
  return { dirs: strip(m.dirs), files: strip(m.files), links: strip(m.links) };
}

function commonPrefix(list: string[]): string {
  if (list.length === 0) return '';
  let p = list[0] as string;
  for (const s of list) while (!s.startsWith(p)) p = p.slice(0, -1);
  return p;
}

/** The verbose listing Salt's `archive.list` returns, with the top-level entries. */
export function verboseListing(m: Members): Record<string, string[]> {
  const dirs = [...m.dirs].sort();
  const files = [...m.files].sort();
  const links = [...m.links].sort();
  const topDirs = dirs.filter((x) => x.split('/').length - 1 === 1);
  const prefix = commonPrefix(dirs);
  if (prefix.includes('/')) {
    const top = `${prefix.split('/')[0]}/`;
    if (!topDirs.includes(top)) topDirs.push(top);
  }
  return {
    dirs,
    files,
    links,
    top_level_dirs: topDirs,
    top_level_files: files.filter((x) => !x.includes('/')),
    top_level_links: links.filter((x) => !x.includes('/')),
  };
}

export async function listArchive(
  ctx: ExecContext,
  name: string,
  a: {
    archive_format?: string | null;
    strip_components?: unknown;
    verbose?: boolean;
    saltenv?: string;
    source_hash?: string | null;
    use_etag?: boolean;
  },
): Promise<string[] | Record<string, string[]>> {
  const cached = await cache(ctx, name, a.saltenv ?? 'base', a.source_hash, a.use_etag);
  let strip = 0;
  if (a.strip_components !== undefined && a.strip_components !== null && a.strip_components !== false) {
    strip = Number.parseInt(String(a.strip_components), 10);
    if (!(strip > 0)) throw new SALT_ERR_EXEC_COMMAND("'strip_components' must be a positive integer");
  }
  let format = a.archive_format ?? null;
  if (!format) {
    const m = /^[a-z][a-z0-9+.-]*:\/\/([^?]*)/i.exec(name);
    format = guessArchiveType(m ? (m[1] as string) : name);
    if (format === null)
      throw new SALT_ERR_EXEC_COMMAND(
        "Unable to guess archive format, please pass an 'archive_format' argument.",
      );
  }
  let members: Members;
  if (format === 'tar') members = await tarMembers(ctx, name, cached);
  else if (format === 'zip') members = await zipMembers(ctx, name, cached);
  else throw new SALT_ERR_EXEC_COMMAND(`Unsupported archive format '${format}'`);
  if (strip > 0) members = stripComponents(members, strip);
  if (a.verbose) return verboseListing(members);
  return [...members.dirs, ...members.files, ...members.links].sort();
}

type Z = typeof import('zod').z;
const gzipArgs = (z: Z) => ({
  template: z.string().nullish(),
  runas: z.string().nullish(),
  options: z.string().nullish(),
});

const splitList = (v: unknown): string[] =>
  v === undefined || v === null
    ? []
    : Array.isArray(v)
      ? v.map(String)
      : String(v)
          .split(',')
          .map((x) => x.trim());

export default defineModule({
  name: 'archive',
  doc: 'A module to wrap (non-Windows) archive calls: list, test and unpack tar and zip archives.',
  functions: {
    list: defineFunction({
      pyName: 'list_',
      args: (z) =>
        z.object({
          name: z.string(),
          archive_format: z.string().nullish(),
          options: z.unknown().optional(),
          strip_components: z.unknown().optional(),
          clean: z.boolean().default(false),
          verbose: z.boolean().default(false),
          saltenv: z.string().default('base'),
          source_hash: z.string().nullish(),
          use_etag: pyFlag(z, false),
        }),
      doc: "List the files and directories in a tar or zip archive (verbose=True: dirs, files, links and the top-level ones).\n\nCLI Example: salt '*' archive.list /path/to/myfile.tar.gz verbose=True",
      run: (ctx, a) => listArchive(ctx, a.name, a),
    }),
    is_encrypted: defineFunction({
      args: (z) =>
        z.object({
          name: z.string(),
          clean: z.boolean().default(false),
          saltenv: z.string().default('base'),
          source_hash: z.string().nullish(),
          use_etag: pyFlag(z, false),
        }),
      doc: "Returns True if the zip archive is password-protected, False if not.\n\nCLI Example: salt '*' archive.is_encrypted /path/to/myfile.zip",
      run: async (ctx, a) =>
        zipIsEncrypted(ctx, a.name, await cache(ctx, a.name, a.saltenv, a.source_hash, a.use_etag)),
    }),
    tar: defineFunction({
      args: (z) =>
        z.object({
          options: z.string(),
          tarfile: z.string(),
          sources: z.unknown().optional(),
          dest: z.string().nullish(),
          cwd: z.string().nullish(),
          template: z.string().nullish(),
          runas: z.string().nullish(),
        }),
      doc: "Uses the tar command to pack, unpack, etc. tar files; returns its output lines.\n\nCLI Example: salt '*' archive.tar cjvf /tmp/tarfile.tar.bz2 /tmp/file_1,/tmp/file_2",
      run: async (ctx, a) => {
        if (!a.options) throw new SALT_ERR_INVOCATION('Tar options can not be empty');
        const cmd = ['tar', ...a.options.split(/\s+/).filter(Boolean), a.tarfile, ...splitList(a.sources)];
        if (a.dest) cmd.push('-C', a.dest);
        const kw: Record<string, unknown> = { python_shell: false };
        if (a.cwd) kw.cwd = a.cwd;
        if (a.template) kw.template = a.template;
        if (a.runas) kw.runas = a.runas;
        const out = String(await ctx.call('cmd.run', [cmd], kw));
        return out === '' ? [] : out.split('\n');
      },
    }),
    gzip: defineFunction({
      args: (z) => z.object({ sourcefile: z.string(), ...gzipArgs(z) }),
      doc: "Uses the gzip command to create gzip files; returns its output lines.\n\nCLI Example: salt '*' archive.gzip /tmp/sourcefile.txt options='-9'",
      run: (ctx, a) => gzipCall(ctx, 'gzip', a.sourcefile, a),
    }),
    gunzip: defineFunction({
      args: (z) => z.object({ gzipfile: z.string(), ...gzipArgs(z) }),
      doc: "Uses the gunzip command to unpack gzip files; returns its output lines.\n\nCLI Example: salt '*' archive.gunzip /tmp/sourcefile.txt.gz options='--verbose'",
      run: (ctx, a) => gzipCall(ctx, 'gunzip', a.gzipfile, a),
    }),
    zip: defineFunction({
      pyName: 'zip_',
      args: (z) =>
        z.object({
          zip_file: z.string(),
          sources: z.unknown(),
          template: z.string().nullish(),
          cwd: z.string().nullish(),
          runas: z.string().nullish(),
          zip64: z.boolean().default(false),
        }),
      doc: "Create a zip file of the sources (comma list or list, globs expanded); returns the names archived. Relative sources need cwd, and are named relative to it; absolute ones relative to /.\n\nCLI Example: salt '*' archive.zip /tmp/zipfile.zip /tmp/sourcefile1,/tmp/sourcefile2",
      run: (ctx, a) => zipSources(ctx, a.zip_file, a.sources, a.cwd, a.runas),
    }),
    unzip: defineFunction({
      args: (z) =>
        z.object({
          zip_file: z.string(),
          dest: z.string(),
          excludes: z.unknown().optional(),
          options: z.unknown().optional(),
          template: z.string().nullish(),
          runas: z.string().nullish(),
          trim_output: z.unknown().default(false),
          password: z.unknown().optional(),
          extract_perms: z.boolean().default(true),
        }),
      doc: "Extract a zip archive into dest; returns the names extracted (trim_output limits the list).\n\nCLI Example: salt '*' archive.unzip /tmp/zipfile.zip /home/strongbad/ excludes=file_1,file_2",
      run: async (ctx, a) => {
        const excludes = splitList(a.excludes);
        const names = (await zipNames(ctx, a.zip_file, a.zip_file)).filter((n) => !excludes.includes(n));
        const cmd = ['unzip', '-o', '-q'];
        if (a.password !== undefined && a.password !== null) cmd.push('-P', String(a.password));
        cmd.push(a.zip_file, '-d', a.dest);
        if (excludes.length > 0) cmd.push('-x', ...excludes);
        const kw: Record<string, unknown> = {
          python_shell: false,
          redirect_stderr: true,
          output_loglevel: 'quiet',
        };
        if (a.runas) kw.runas = a.runas;
        const r = (await ctx.call('cmd.run_all', [cmd], kw)) as { retcode: number; stdout: string };
        if (r.retcode !== 0)
          throw new SALT_ERR_EXEC_COMMAND(`Exception encountered unpacking zipfile: ${r.stdout}`);
        return trimFiles(names, a.trim_output);
      },
    }),
    cmd_unzip: defineFunction({
      args: (z) =>
        z.object({
          zip_file: z.string(),
          dest: z.string(),
          excludes: z.unknown().optional(),
          options: z.string().nullish(),
          template: z.string().nullish(),
          runas: z.string().nullish(),
          trim_output: z.unknown().default(false),
          password: z.unknown().optional(),
        }),
      doc: "Uses the unzip command to unpack zip files; returns its output lines.\n\nCLI Example: salt '*' archive.cmd_unzip /tmp/zipfile.zip /home/strongbad/ excludes=file_1,file_2",
      run: async (ctx, a) => {
        const cmd = ['unzip'];
        if (a.password !== undefined && a.password !== null) cmd.push('-P', String(a.password));
        if (a.options) cmd.push(...shlexSplit(a.options));
        cmd.push(a.zip_file, '-d', a.dest);
        const excludes = splitList(a.excludes);
        if (a.excludes !== undefined && a.excludes !== null) cmd.push('-x', ...excludes);
        const kw: Record<string, unknown> = {
          python_shell: false,
          redirect_stderr: true,
          output_loglevel: 'quiet',
        };
        if (a.template) kw.template = a.template;
        if (a.runas) kw.runas = a.runas;
        const r = (await ctx.call('cmd.run_all', [cmd], kw)) as { retcode: number; stdout: string };
        if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(r.stdout);
        return trimFiles(r.stdout === '' ? [] : r.stdout.split('\n'), a.trim_output);
      },
    }),
    ...archiveCmdFunctions,
  },
});
