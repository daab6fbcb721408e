/**
 * Python's `fnmatch.fnmatchcase` (POSIX `fnmatch.fnmatch`): `*`, `?`, `[seq]`, `[!seq]`,
 * matched against the whole string.
 */

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The RegExp for a shell-style pattern, as `fnmatch.translate` builds it. */
export function fnmatchRegExp(pattern: string): RegExp {
  let re = '';
  let i = 0;
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] ?? '';
    i += 1;
    if (c === '*') {
      re += '.*';
      while (pattern[i] === '*') i += 1;
    } else if (c === '?') re += '.';
    else if (c === '[') {
      let j = i;
      if (pattern[j] === '!') j += 1;
      if (pattern[j] === ']') j += 1;
      while (j < n && pattern[j] !== ']') j += 1;
      if (j >= n) re += '\\[';
      else {
        let body = pattern.slice(i, j).replace(/\\/g, '\\\\');
        i = j + 1;
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        else if (body.startsWith('^')) body = `\\${body}`;
        re += body === '' ? '(?!)' : body === '^' ? '[\\s\\S]' : `[${body.replace(/[[\]]/g, '\\$&')}]`;
      }
    } else re += escapeRe(c);
  }
  return new RegExp(`^(?:${re})$`, 's');
}

/** Compiled patterns, so a loop matching many names against a few patterns compiles each once. */
const compiled = new Map<string, RegExp>();
const MAX_COMPILED = 1000;

/** Whether `name` matches the shell-style `pattern` (case-sensitive, as on POSIX). */
export function fnmatch(name: string, pattern: string): boolean {
  // a pattern without wildcards matches only itself (the state runtime matches every requisite so)
  if (!/[*?[]/.test(pattern)) return name === pattern;
  let re = compiled.get(pattern);
  if (!re) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    re = fnmatchRegExp(pattern);
    compiled.set(pattern, re);
  }
  return re.test(name);
}
