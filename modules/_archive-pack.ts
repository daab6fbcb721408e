/**
 * Salt's `archive.zip` (`zip_`, over Python's zipfile) and `archive.gzip`/`gunzip`, with the
 * system's `zip` and `gzip` programs: the sources (a comma list or a list, `*?[` globs in the
 * last part expanded) are walked as Salt walks them and each entry is named relative to `cwd`
 * (or `/`); the names are handed to `zip` as argv and returned in walk order (each folder's
 * entries sorted: Salt's follow the file system's order).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type ExecContext, SALT_ERR_EXEC_COMMAND, SALT_ERR_INVOCATION } from '../kernel/index.js';
import { fnmatch } from './_fnmatch.js';

/** Salt's `_expand_sources`: a comma string or a list, globs expanded (a glob with no match drops out). */
export function expandSources(sources: unknown): string[] {
  if (sources === undefined || sources === null) return [];
  const list = Array.isArray(sources)
    ? sources.map(String)
    : String(sources)
        .split(',')
        .map((s) => s.trim());
  return list.flatMap((src) => {
    if (!/[*?[]/.test(src)) return [src];
    const dir = path.dirname(src);
    if (/[*?[]/.test(dir) || !existsSync(dir)) return [];
    return readdirSync(dir)
      .filter((n) => !n.startsWith('.') && fnmatch(n, path.basename(src)))
      .sort()
      .map((n) => (dir === '.' && !src.startsWith('./') ? n : path.join(dir, n)));
  });
}

/** The entries `src` adds to the archive, named as Salt names them. */
function entriesOf(src: string, relRoot: string, cwd: string | null): string[] {
  const rel = (p: string) => (cwd && p.startsWith(cwd) ? path.relative(cwd, p) : path.relative(relRoot, p));
  if (!statSync(src).isDirectory()) return [rel(src)];
  const out: string[] = [];
  const walk = (dir: string) => {
    const arcDir = rel(dir);
    if (arcDir) out.push(`${arcDir}/`);
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    const subdirs: string[] = [];
    for (const e of entries) {
      // os.walk lists a link to a folder among the folders and does not enter it
      const full = path.join(dir, e.name);
      const isDir =
        e.isDirectory() || (e.isSymbolicLink() && existsSync(full) && statSync(full).isDirectory());
      if (isDir) {
        if (!e.isSymbolicLink()) subdirs.push(full);
      } else out.push(path.join(arcDir, e.name));
    }
    for (const d of subdirs) walk(d);
  };
  walk(src);
  return out;
}

/** Salt's `archive.zip`: the names written to `zipFile`. */
export async function zipSources(
  ctx: ExecContext,
  zipFile: string,
  sources: unknown,
  cwd: string | null | undefined,
  runas: string | null | undefined,
): Promise<string[]> {
  const info = runas ? await ctx.call('user.info', [runas]) : null;
  if (runas && (!info || Object.keys(info as object).length === 0))
    throw new SALT_ERR_INVOCATION(`User '${runas}' does not exist`);
  const srcs = expandSources(sources);
  if (!cwd) {
    for (const s of srcs)
      if (!path.isAbsolute(s)) throw new SALT_ERR_INVOCATION("Relative paths require the 'cwd' parameter");
  } else if (!path.isAbsolute(cwd)) throw new SALT_ERR_INVOCATION('cwd must be absolute');
  const relRoot = cwd ?? '/';
  const names: string[] = [];
  for (const s of srcs) {
    const full = cwd ? path.join(cwd, s) : s;
    if (existsSync(full)) names.push(...entriesOf(full, path.isAbsolute(full) ? '/' : relRoot, cwd ?? null));
  }
  const target = path.resolve(cwd ?? process.cwd(), zipFile);
  const kw: Record<string, unknown> = { python_shell: false, cwd: relRoot, redirect_stderr: true };
  if (runas) kw.runas = runas;
  // a fresh archive, as Python's ZipFile(..., 'w') writes one; a name that looks like an option gets ./
  await rm(target, { force: true });
  // nothing to add: an empty archive (its end record alone), as Python writes one; zip would refuse
  if (names.length === 0) {
    await writeFile(target, Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]));
    return names;
  }
  const argv = [
    'zip',
    '-q',
    target,
    ...names.map((n) => (n.startsWith('-') ? `./${n}` : n).replace(/\/$/, '')),
  ];
  const r = (await ctx.call('cmd.run_all', [argv], kw)) as { retcode: number; stdout: string };
  if (r.retcode !== 0) throw new SALT_ERR_EXEC_COMMAND(`Exception encountered creating zipfile: ${r.stdout}`);
  return names;
}

/** Salt's `archive.gzip`/`gunzip`: the program's output lines (`options` is one argument, as in Salt). */
export async function gzipCall(
  ctx: ExecContext,
  program: 'gzip' | 'gunzip',
  file: string,
  a: { template?: string | null; runas?: string | null; options?: string | null },
): Promise<string[]> {
  const cmd = [program, ...(a.options ? [a.options] : []), file];
  const kw: Record<string, unknown> = { python_shell: false };
  if (a.template) kw.template = a.template;
  if (a.runas) kw.runas = a.runas;
  const out = String(await ctx.call('cmd.run', [cmd], kw));
  return out === '' ? [] : out.split('\n');
}
