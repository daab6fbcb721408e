/**
 * Directory scanning for the loader: turns an ordered list of directories into a map of
 * unit files keyed by file stem. Salt's `LazyLoader._refresh_file_mapping`: each directory
 * is read once, sorted, and the first directory that has a stem wins.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { UnitLogger } from './define.js';

/** One loadable file found by a scan. */
export interface UnitFile {
  /** File name without its extension: the module's key in the common case (`test` for `test.js`). */
  readonly stem: string;
  /** Absolute path of the file. */
  readonly path: string;
  /** Position in search order over all directories: lower is searched first. */
  readonly rank: number;
}

/** Options of {@link scanDirs}. */
export interface ScanOptions {
  /** Also take `*.ts`/`*.mts` files; only when a TypeScript loader is registered in the process. */
  tsLoader?: boolean;
  /** File stems to leave out (config `disable_modules`). */
  disabled?: ReadonlySet<string>;
  log: UnitLogger;
}

/** Two files with one stem: the first in search order is kept. */
export interface StemCollision {
  readonly module: string;
  readonly kept: string;
  readonly ignored: string;
}

/** What a scan found: files by stem (the winning file per stem), every winner in search order, and the losers. */
export interface ScanResult {
  readonly byStem: ReadonlyMap<string, UnitFile>;
  readonly ordered: readonly UnitFile[];
  readonly collisions: readonly StemCollision[];
}

const JS_EXTENSIONS = ['.mjs', '.js'] as const;
const TS_EXTENSIONS = ['.mts', '.ts'] as const;

/**
 * The stem of a loadable file name, or `undefined` when the loader must skip the file:
 * `_`-prefixed and hidden names, `*.test.*`, declaration files, source maps and other extensions.
 */
export function unitStem(fileName: string, tsLoader = false): string | undefined {
  if (fileName.startsWith('_') || fileName.startsWith('.')) return undefined;
  if (fileName.includes('.test.') || fileName.endsWith('.map')) return undefined;
  if (/\.d\.[cm]?ts$/.test(fileName)) return undefined;
  const exts: readonly string[] = tsLoader ? [...JS_EXTENSIONS, ...TS_EXTENSIONS] : JS_EXTENSIONS;
  for (const ext of exts) {
    if (fileName.endsWith(ext) && fileName.length > ext.length) return fileName.slice(0, -ext.length);
  }
  return undefined;
}

function isMissingDir(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Lists one directory's loadable files, sorted by file name. A missing directory is empty. */
async function listDir(dir: string, options: ScanOptions): Promise<Array<{ stem: string; path: string }>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if (isMissingDir(err)) {
      options.log.trace({ dir }, 'loader dir does not exist');
    } else {
      options.log.warn({ dir, err }, 'cannot read loader dir');
    }
    return [];
  }
  names.sort();
  const out: Array<{ stem: string; path: string }> = [];
  for (const name of names) {
    const stem = unitStem(name, options.tsLoader);
    if (stem === undefined) continue;
    if (options.disabled?.has(stem)) {
      options.log.trace({ dir, file: name }, 'skipping unit disabled by configuration');
      continue;
    }
    const path = join(dir, name);
    if (await isFile(path)) out.push({ stem, path });
  }
  return out;
}

/**
 * Scans `dirs` in order. The first file seen for a stem wins; later ones are returned in
 * `collisions` for the caller to log. Directories that do not exist are skipped.
 */
export async function scanDirs(dirs: readonly string[], options: ScanOptions): Promise<ScanResult> {
  const byStem = new Map<string, UnitFile>();
  const ordered: UnitFile[] = [];
  const collisions: StemCollision[] = [];
  const seenDirs = new Set<string>();
  for (const raw of dirs) {
    const dir = resolve(raw);
    if (seenDirs.has(dir)) continue;
    seenDirs.add(dir);
    for (const { stem, path } of await listDir(dir, options)) {
      const kept = byStem.get(stem);
      if (kept) {
        collisions.push({ module: stem, kept: kept.path, ignored: path });
        continue;
      }
      const file: UnitFile = { stem, path, rank: ordered.length };
      byStem.set(stem, file);
      ordered.push(file);
    }
    options.log.trace({ dir, files: ordered.length }, 'scanned loader dir');
  }
  return { byStem, ordered, collisions };
}
