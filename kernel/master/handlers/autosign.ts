/**
 * `autosign_file` / `autoreject_file`: one pattern per line; a line matches an id as a glob
 * or, failing that, as a regular expression (Salt's `check_autosign` / `check_autoreject`).
 */
import { readFile } from 'node:fs/promises';
import { globMatch } from '../../targeting/glob.js';

export async function idListedIn(file: string | null | undefined, id: string): Promise<boolean> {
  if (!file) return false;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return false;
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    if (line === id || globMatch(line, id)) return true;
    try {
      if (new RegExp(`^(?:${line})$`).test(id)) return true;
    } catch {
      // not a regular expression either
    }
  }
  return false;
}
