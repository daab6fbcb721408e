/** Waits (at most `ms`) until a file a daemon appends to matches `pattern`; resolves with its text either way. */
import { existsSync, readFileSync } from 'node:fs';

export async function fileMatching(file: string, pattern: RegExp, ms = 5000): Promise<string> {
  const deadline = Date.now() + ms;
  for (;;) {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
    if (pattern.test(text) || Date.now() > deadline) return text;
    await new Promise((r) => setTimeout(r, 50));
  }
}
