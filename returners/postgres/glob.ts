/**
 * Shell globs (Salt's `fnmatch`) as anchored POSIX regular expressions, so a store can match
 * them server-side (PostgreSQL's `~`).
 */

const SPECIAL = new Set(['\\', '^', '$', '.', '|', '+', '(', ')', '{', '}', '[', ']', '*', '?']);

/** Whether `glob` has any wildcard (otherwise it matches only itself). */
export function hasWildcard(glob: string): boolean {
  return /[*?[]/.test(glob);
}

/** `glob` as an anchored regular expression (fnmatch rules: `*`, `?`, `[seq]`, `[!seq]`). */
export function globToRegex(glob: string): string {
  let out = '^';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i] as string;
    if (ch === '*') out += '.*';
    else if (ch === '?') out += '.';
    else if (ch === '[') {
      const close = glob.indexOf(']', i + 2);
      if (close === -1) {
        out += '\\[';
        continue;
      }
      let body = glob.slice(i + 1, close);
      const negate = body.startsWith('!');
      if (negate) body = body.slice(1);
      out += `[${negate ? '^' : ''}${body.replaceAll('\\', '\\\\')}]`;
      i = close;
    } else out += SPECIAL.has(ch) ? `\\${ch}` : ch;
  }
  return `${out}$`;
}
