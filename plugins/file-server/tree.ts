/**
 * A directory tree as the file server sees it (Salt's `roots._file_lists`): its files, its
 * directories, its empty directories and its symlinks, relative to the tree's top and placed
 * under a mount point. Entries whose real path leaves the top are left out unless
 * `fileserver_followsymlinks`; `file_ignore_regex`/`file_ignore_glob` hide files.
 */
import { readdir, readlink, realpath, stat } from 'node:fs/promises';
import { posix } from 'node:path';
import { fnmatch } from '../../modules/_fnmatch.js';
import { isInside } from './paths.js';

/** What decides which entries of a tree are served. */
export interface TreeRules {
  readonly followSymlinks: boolean;
  readonly ignoreRegex: readonly RegExp[];
  readonly ignoreGlob: readonly string[];
}

/** The listings of one tree, paths relative to the mount point's parent (`mount/rel`). */
export interface TreeLists {
  files: string[];
  dirs: string[];
  emptyDirs: string[];
  links: Record<string, string>;
}

/** Salt's `is_file_ignored`: a regex that matches anywhere, or a glob that matches the path. */
export function isIgnored(rules: TreeRules, path: string): boolean {
  return rules.ignoreRegex.some((re) => re.test(path)) || rules.ignoreGlob.some((g) => fnmatch(path, g));
}

export async function realOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await realpath(path);
  } catch {
    return undefined;
  }
}

function mounted(mount: string, rel: string): string {
  return mount ? (rel ? `${mount}/${rel}` : mount) : rel;
}

/** Walks the tree at `top`; missing tops give empty lists. */
export async function walkTree(top: string, mount: string, rules: TreeRules): Promise<TreeLists> {
  const out: TreeLists = { files: [], dirs: [], emptyDirs: [], links: {} };
  const realTop = await realOrUndefined(top);
  if (!realTop) return out;
  // the mount point's own folders are directories of the saltenv too
  if (mount) {
    const parts = mount.split('/');
    for (let i = 1; i <= parts.length; i++) out.dirs.push(parts.slice(0, i).join('/'));
  }
  const seen = new Set<string>([realTop]);
  const walk = async (dir: string, relDir: string): Promise<void> => {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    let served = 0;
    for (const name of names.sort()) {
      const abs = posix.join(dir, name);
      const rel = relDir ? `${relDir}/${name}` : name;
      const real = await realOrUndefined(abs);
      if (!real) continue;
      if (!rules.followSymlinks && !isInside(realTop, real)) continue;
      let target: string | undefined;
      try {
        target = await readlink(abs);
      } catch {
        target = undefined;
      }
      let st: Awaited<ReturnType<typeof stat>>;
      try {
        st = await stat(real);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (target !== undefined && !rules.followSymlinks) {
          out.links[mounted(mount, rel)] = target;
          continue;
        }
        // a link back up the tree would walk forever
        if (seen.has(real)) continue;
        seen.add(real);
        out.dirs.push(mounted(mount, rel));
        await walk(abs, rel);
        seen.delete(real);
        served += 1;
      } else if (st.isFile()) {
        if (isIgnored(rules, rel) || isIgnored(rules, abs)) continue;
        if (target !== undefined) out.links[mounted(mount, rel)] = target;
        out.files.push(mounted(mount, rel));
        served += 1;
      }
    }
    if (served === 0 && relDir) out.emptyDirs.push(mounted(mount, relDir));
  };
  await walk(realTop, '');
  return out;
}
