/**
 * Python's `glob.glob` as Salt's file functions use it: `*`, `?` and `[...]` in any path
 * segment (no `**`), hidden names matched only by a segment that starts with a dot, a
 * relative pattern answered relative to the working folder, and names in the folder's own
 * order (`os.scandir`, unsorted), so a command given the matches sees them as Salt's would.
 */
import { lstat, opendir } from 'node:fs/promises';
import { posix } from 'node:path';
import { fnmatch } from './_fnmatch.js';

const MAGIC = /[*?[]/;

/** The names in `dir`, in the order the file system lists them ([] when it cannot be read). */
async function scandir(dir: string): Promise<Array<{ name: string; dir: boolean }>> {
  const out: Array<{ name: string; dir: boolean }> = [];
  try {
    for await (const e of await opendir(dir))
      out.push({ name: e.name, dir: e.isDirectory() || e.isSymbolicLink() });
  } catch {
    // unreadable or missing: no matches, as Python's glob
  }
  return out;
}

export async function pyGlob(pattern: string): Promise<string[]> {
  const absolute = pattern.startsWith('/');
  const segments = pattern.split('/').filter((s) => s !== '');
  let bases = [absolute ? '/' : ''];
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const next: string[] = [];
    for (const base of bases) {
      if (!MAGIC.test(segment)) {
        next.push(base ? posix.join(base, segment) : segment);
        continue;
      }
      for (const e of await scandir(base || '.')) {
        if (e.name.startsWith('.') && !segment.startsWith('.')) continue;
        if (!fnmatch(e.name, segment) || (!last && !e.dir)) continue;
        next.push(base ? posix.join(base, e.name) : e.name);
      }
    }
    bases = next;
  }
  // literal segments are kept only where the path exists, as Python's glob does
  const found = await Promise.all(
    bases.map((p) =>
      lstat(p).then(
        () => p,
        () => null,
      ),
    ),
  );
  return found.filter((p): p is string => p !== null);
}
