/**
 * The pillar file tree: `pillar_roots` by pillarenv, read as Salt's local file client reads it
 * for pillar (`fileclient.list_states` and `get_state`): SLS names are paths with `.` for `/`,
 * `x/init.sls` is `x`, and the first root that has a file wins. Names that climb out of a root
 * (`..`, absolute paths) or symlinks pointing out of it are not found.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';

export type PillarRoots = Readonly<Record<string, readonly string[]>>;

/** Where an SLS was found: its file, and the name it was asked by (`x` or `x/init.sls`). */
export interface SlsFile {
  path: string;
  /** `x.sls` or `x/init.sls`, relative to the root (Salt's `source` without `salt://`). */
  source: string;
}

function inside(root: string, file: string): boolean {
  try {
    const rel = relative(realpathSync(root), realpathSync(file));
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
  } catch {
    return false;
  }
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** A relative file path under the roots of `env`, or undefined (never outside a root). */
export function findFile(roots: PillarRoots, env: string, rel: string): string | undefined {
  const parts = rel.split('/');
  if (isAbsolute(rel) || parts.some((p) => p === '..' || p === '')) return undefined;
  for (const root of roots[env] ?? []) {
    const path = join(root, ...parts);
    if (isFile(path) && inside(root, path)) return path;
  }
  return undefined;
}

/** Salt's `get_state`: `a.b` is `a/b.sls`, else `a/b/init.sls`. */
export function findSls(roots: PillarRoots, env: string, sls: string): SlsFile | undefined {
  const base = sls.replaceAll('.', '/');
  for (const source of [`${base}.sls`, `${base}/init.sls`]) {
    const path = findFile(roots, env, source);
    if (path) return { path, source };
  }
  return undefined;
}

function walk(root: string, dir: string, out: Set<string>, depth: number): void {
  if (depth > 64) return;
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) walk(root, path, out, depth + 1);
    else if (e.isFile() && e.name.endsWith('.sls')) {
      const rel = relative(root, path).split(sep).join('/');
      out.add(
        rel.endsWith('/init.sls')
          ? rel.slice(0, -9).replaceAll('/', '.')
          : rel.slice(0, -4).replaceAll('/', '.'),
      );
    }
  }
}

/** Salt's `list_states`: every SLS name of `env`, sorted. */
export function listSls(roots: PillarRoots, env: string): string[] {
  const out = new Set<string>();
  for (const root of roots[env] ?? []) walk(root, root, out, 0);
  return [...out].sort();
}
