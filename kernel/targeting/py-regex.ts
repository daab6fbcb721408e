/**
 * Python `re` patterns as used by Salt's pcre targets, run on JavaScript's engine: the common
 * Python-only spellings are translated (`(?P<name>...)`, `(?P=name)`, `\A`, `\Z`, leading
 * inline flags such as `(?i)`), and matching is anchored at the start like `re.match`.
 */
import { SALT_ERR_TARGET_INVALID } from '../errors.js';

const cache = new Map<string, RegExp>();

/** Rewrites Python-only regex syntax to its JavaScript equivalent. */
function translate(src: string): { source: string; flags: string } {
  let flags = '';
  let rest = src;
  // global inline flags at the start of the pattern: (?i), (?ms), ...
  for (let m = /^\(\?([aiLmsux]+)\)/.exec(rest); m; m = /^\(\?([aiLmsux]+)\)/.exec(rest)) {
    for (const f of m[1] as string) {
      if (f === 'i' || f === 'm' || f === 's') {
        if (!flags.includes(f)) flags += f;
      } else if (f === 'x' || f === 'L') {
        throw new SALT_ERR_TARGET_INVALID(`the regular expression flag (?${f}) is not supported`);
      }
    }
    rest = rest.slice(m[0].length);
  }
  let out = '';
  for (let i = 0; i < rest.length; i++) {
    const c = rest[i] as string;
    if (c === '\\') {
      const n = rest[i + 1];
      if (n === 'A') out += '^';
      else if (n === 'Z') out += '$';
      else out += `\\${n ?? ''}`;
      i++;
    } else if (rest.startsWith('(?P<', i)) {
      out += '(?<';
      i += 3;
    } else if (rest.startsWith('(?P=', i)) {
      const end = rest.indexOf(')', i);
      if (end < 0) throw new SALT_ERR_TARGET_INVALID(`unterminated group reference in ${src}`);
      out += `\\k<${rest.slice(i + 4, end)}>`;
      i = end;
    } else out += c;
  }
  return { source: out, flags };
}

/**
 * Compiles a Python regular expression, sticky (it matches only where `lastIndex` points, as
 * `re.match` does at 0); an invalid one is a SALT_ERR_TARGET_INVALID.
 */
export function pythonRegExp(pattern: string): RegExp {
  const hit = cache.get(pattern);
  if (hit) return hit;
  const { source, flags } = translate(pattern);
  let re: RegExp;
  try {
    re = new RegExp(source, `${flags}y`);
  } catch (err) {
    throw new SALT_ERR_TARGET_INVALID(
      `invalid regular expression ${JSON.stringify(pattern)}: ${(err as Error).message}`,
    );
  }
  if (cache.size > 1000) cache.clear();
  cache.set(pattern, re);
  return re;
}

/** Python `re.match`: does the pattern match at the start of `text`? */
export function pyReMatch(pattern: string, text: string): boolean {
  const re = pythonRegExp(pattern);
  re.lastIndex = 0;
  return re.test(text);
}
