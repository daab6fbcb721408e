/**
 * Python `fnmatch` semantics for target globs: `*`, `?`, `[seq]`, `[!seq]`, case-sensitive.
 */
const cache = new Map<string, RegExp>();

function escapeRegex(ch: string): string {
  return /[\\^$.*+?()[\]{}|/-]/.test(ch) ? `\\${ch}` : ch;
}

/** Translates a glob to an anchored regular expression as Python's `fnmatch.translate` does. */
export function globToRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '*') out += '[\\s\\S]*';
    else if (c === '?') out += '[\\s\\S]';
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j++;
      if (j >= pattern.length) {
        out += '\\[';
      } else {
        let body = pattern.slice(i + 1, j).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        else if (body.startsWith('^')) body = `\\${body}`;
        out += `[${body}]`;
        i = j;
      }
    } else out += escapeRegex(c);
  }
  const re = new RegExp(`^${out}$`);
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** True when `name` matches the glob `pattern`. */
export function globMatch(pattern: string, name: string): boolean {
  return globToRegExp(pattern).test(name);
}
