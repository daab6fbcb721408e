/**
 * Python's `os.walk(top, topdown=False)` for the file functions and states that walk a tree
 * bottom-up (`file.rmdir`, `file.tidied`): a symlink to a folder is listed among the folders
 * and entered only with `follow`, as `followlinks`.
 */
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isDir } from './_file-stat.js';

/** A folder's entries as os.walk splits them: folders (a symlink to one too) and the rest. */
export async function splitEntries(dir: string, entries: readonly Dirent[]): Promise<[string[], string[]]> {
  const dirs: string[] = [];
  const files: string[] = [];
  for (const e of entries) {
    if (e.isDirectory() || (e.isSymbolicLink() && (await isDir(join(dir, e.name))))) dirs.push(e.name);
    else files.push(e.name);
  }
  return [dirs, files];
}

/** Python's `os.walk(top, topdown=False)`: `[root, dirs, files]` deepest first. */
export async function walkUp(top: string, follow: boolean): Promise<Array<[string, string[], string[]]>> {
  const out: Array<[string, string[], string[]]> = [];
  const visit = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => null);
    if (!entries) return;
    const [dirs, files] = await splitEntries(dir, entries);
    for (const d of dirs) {
      const full = join(dir, d);
      if (follow || !(await lstat(full)).isSymbolicLink()) await visit(full);
    }
    out.push([dir, dirs, files]);
  };
  await visit(top);
  return out;
}
