/**
 * Salt's `subdict_match`: does nested data match `key:value` where the delimiter both separates
 * levels and may be part of a value (`foo:bar:baz` tries `foo.bar == baz` first, then
 * `foo == "bar:baz"`)? Values compare case-insensitively, as text (Python `str()`), by glob,
 * by `re.match` or exactly; a list matches when one member does; `*:` searches every key.
 */

import { pyStr } from '../python/index.js';
import { globMatch } from './glob.js';
import { pyReMatch } from './py-regex.js';
import { isDict, traverseDictAndList } from './traverse.js';

export interface SubdictMatchOptions {
  /** Level separator (Salt's `delimiter`, default `:`). */
  delimiter?: string;
  /** Compare values with `re.match` (grain_pcre, pillar_pcre). */
  regexMatch?: boolean;
  /** Compare values for equality (pillar_exact). */
  exactMatch?: boolean;
}

interface Mode {
  regexMatch: boolean;
  exactMatch: boolean;
}

function valueMatch(target: unknown, pattern: string, mode: Mode): boolean {
  const t = pyStr(target).toLowerCase();
  const p = pattern.toLowerCase();
  if (mode.regexMatch) {
    try {
      return pyReMatch(p, t);
    } catch {
      // Salt logs an invalid regex here and does not match
      return false;
    }
  }
  return mode.exactMatch ? t === p : globMatch(p, t);
}

function dictMatch(target: Record<string, unknown>, pattern: string, mode: Mode): boolean {
  const wildcard = pattern.startsWith('*:');
  const pat = wildcard ? pattern.slice(2) : pattern;
  if (pat === '*') return true;
  if (Object.hasOwn(target, pat)) return true;
  // nested levels below a map always use the default delimiter, as Salt does
  if (subdictMatch(target, pat, mode)) return true;
  if (!wildcard) return false;
  for (const value of Object.values(target)) {
    if (isDict(value)) {
      if (dictMatch(value, pat, mode)) return true;
    } else if (Array.isArray(value)) {
      if (value.some((item) => valueMatch(item, pat, mode))) return true;
    } else if (valueMatch(value, pat, mode)) return true;
  }
  return false;
}

const MISSING: Record<string, never> = {};

function isEmptyDict(value: unknown): boolean {
  return isDict(value) && Object.keys(value).length === 0;
}

/** True when `data` matches the delimited expression `expr`. */
export function subdictMatch(data: unknown, expr: string, options: SubdictMatchOptions = {}): boolean {
  const delimiter = options.delimiter || ':';
  const mode: Mode = { regexMatch: Boolean(options.regexMatch), exactMatch: Boolean(options.exactMatch) };
  const splits = expr.split(delimiter);
  if (splits.length === 1) return false;
  // deepest key first: with three delimiters try the first 3 parts as the key, then 2, then 1
  for (let idx = splits.length - 1; idx > 0; idx--) {
    const key = splits.slice(0, idx).join(delimiter);
    let matchstr: string;
    let match: unknown;
    if (key === '*') {
      matchstr = expr;
      match = data;
    } else {
      matchstr = splits.slice(idx).join(delimiter);
      match = traverseDictAndList(data, key, MISSING, delimiter);
    }
    if (isEmptyDict(match)) continue;
    if (isDict(match)) {
      if (dictMatch(match, matchstr, mode)) return true;
      continue;
    }
    if (Array.isArray(match)) {
      for (const member of match) {
        if (isDict(member) && dictMatch(member, matchstr, mode)) return true;
        if (valueMatch(member, matchstr, mode)) return true;
      }
      continue;
    }
    if (valueMatch(match, matchstr, mode)) return true;
  }
  return false;
}
