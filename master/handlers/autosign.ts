/**
 * `autosign_file` / `autoreject_file`: one pattern per line; a line matches an id as a glob
 * or, failing that, as a regular expression (Salt's `check_autosign` / `check_autoreject`).
 */
import { readFileSync, statSync } from 'node:fs';
import { globMatch } from '../../kernel/targeting/glob.js';

/**
 * The pattern lines of each file, kept while its mtime, ctime, inode and size are unchanged and
 * it was read more than {@link SETTLE_MS} after its last change (an edit within the same
 * timestamp tick as the read is seen on the next sign-in).
 */
const files = new Map<string, { stamp: string; lines: string[] }>();
const SETTLE_MS = 2000;

function patternLines(file: string): string[] {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) {
    files.delete(file);
    return [];
  }
  const stamp = `${st.mtimeMs}:${st.ctimeMs}:${st.ino}:${st.size}`;
  const hit = files.get(file);
  if (hit && hit.stamp === stamp) return hit.lines;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  if (Date.now() - Math.max(st.mtimeMs, st.ctimeMs) > SETTLE_MS) files.set(file, { stamp, lines });
  else files.delete(file);
  return lines;
}

/** Whether `id` matches a line of `file` (read synchronously: request workers may block). */
export function idListedIn(file: string | null | undefined, id: string): boolean {
  if (!file) return false;
  for (const line of patternLines(file)) {
    if (line === id || globMatch(line, id)) return true;
    try {
      if (new RegExp(`^(?:${line})$`).test(id)) return true;
    } catch {
      // not a regular expression either
    }
  }
  return false;
}
