/**
 * Salt's config includes (`include_config`): `default_include` (`<kind>.d/*.conf`) and
 * `include` globs, relative to the config directory, read in sorted order and deep-merged
 * with each other (lists concatenated without duplicates, Salt's `dictupdate.update` with
 * `merge_lists`); the result then replaces the main file's top-level keys.
 */
import { lstat, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { posix } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { isRecord } from '../guards.js';
import { readSaltYamlFile } from './salt-yaml.js';

/** One include file and the options it set (top-level keys), in the order they apply, for messages. */
export interface IncludedFile {
  path: string;
  keys: string[];
}

/** The merged options of all includes, and which files they came from. */
export interface IncludeResult {
  options: Record<string, unknown>;
  files: IncludedFile[];
  /** Patterns that matched no file (Salt warns about these for `include`). */
  unmatched: string[];
}

const MAGIC = /[*?[]/;

/** Python `fnmatch`-style segment pattern → RegExp (`*`, `?`, `[...]`, `[!...]`). */
function segmentRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (ch === '*') source += '.*';
    else if (ch === '?') source += '.';
    else if (ch === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end === -1) source += '\\[';
      else {
        let body = pattern.slice(i + 1, end).replace(/\\/g, '\\\\');
        if (body.startsWith('!')) body = `^${body.slice(1)}`;
        source += `[${body}]`;
        i = end;
      }
    } else source += ch.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 's');
}

/**
 * Python's `glob.glob` for absolute patterns: wildcards in any segment, hidden names only
 * matched by patterns that start with a dot, no `**`. Returns matches in no particular order.
 */
export async function glob(pattern: string): Promise<string[]> {
  const segments = posix
    .normalize(pattern)
    .split('/')
    .filter((s) => s !== '');
  let bases = ['/'];
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    const next: string[] = [];
    for (const base of bases) {
      if (!MAGIC.test(segment)) {
        next.push(posix.join(base, segment));
        continue;
      }
      const re = segmentRegExp(segment);
      const entries = await readdir(base, { withFileTypes: true }).catch(() => []);
      for (const entry of entries) {
        if (entry.name.startsWith('.') && !segment.startsWith('.')) continue;
        if (!re.test(entry.name)) continue;
        if (!last && !entry.isDirectory() && !entry.isSymbolicLink()) continue;
        next.push(posix.join(base, entry.name));
      }
    }
    bases = next;
  }
  const lastSegment = segments.at(-1);
  if (lastSegment !== undefined && MAGIC.test(lastSegment)) return bases;
  // A literal last segment: keep only paths that exist, as Python's glob does.
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

/** Salt's `dictupdate.update(dest, upd, recursive_update=True, merge_lists=True)`, without mutating. */
export function mergeSaltOptions(
  dest: Record<string, unknown>,
  upd: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...dest };
  for (const [key, value] of Object.entries(upd)) {
    const current = out[key];
    if (isRecord(current) && isRecord(value)) out[key] = mergeSaltOptions(current, value);
    else if (Array.isArray(current) && Array.isArray(value)) {
      const merged = [...current];
      for (const item of value) if (!merged.some((m) => isDeepStrictEqual(m, item))) merged.push(item);
      out[key] = merged;
    } else out[key] = value;
  }
  return out;
}

function toPatterns(value: unknown): string[] {
  if (typeof value === 'string') return value === '' ? [] : [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string' && v !== '');
  return [];
}

function absolutePattern(pattern: string, relativeTo: string): string {
  const expanded = pattern === '~' || pattern.startsWith('~/') ? homedir() + pattern.slice(1) : pattern;
  return posix.isAbsolute(expanded) ? expanded : posix.join(relativeTo, expanded);
}

/**
 * Reads the files `patterns` (a glob or a list of globs) match, relative to `relativeTo`, in
 * sorted order per pattern. An included file's own `include` is read relative to that file
 * and overrides its keys. A file that is already being read is skipped (include cycles).
 */
export async function readIncludes(
  patterns: unknown,
  relativeTo: string,
  seen: ReadonlySet<string> = new Set(),
): Promise<IncludeResult> {
  let options: Record<string, unknown> = {};
  const files: IncludedFile[] = [];
  const unmatched: string[] = [];
  for (const pattern of toPatterns(patterns)) {
    const matches = (await glob(absolutePattern(pattern, relativeTo))).sort();
    if (matches.length === 0) unmatched.push(pattern);
    for (const file of matches) {
      if (seen.has(file)) continue;
      let opts = await readSaltYamlFile(file);
      files.push({ path: file, keys: Object.keys(opts) });
      const nested = opts.include;
      if (nested !== undefined && nested !== null) {
        const inner = await readIncludes(nested, posix.dirname(file), new Set([...seen, file]));
        opts = { ...opts, ...inner.options };
        files.push(...inner.files);
        unmatched.push(...inner.unmatched);
      }
      options = mergeSaltOptions(options, opts);
    }
  }
  return { options, files, unmatched };
}
