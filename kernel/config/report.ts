/**
 * Turns validation results into text people can act on: one line per bad key with its path,
 * what was expected and what was given, and warnings for options tsalt does not know.
 */
import type { z } from 'zod';

/** A zod issue, as found in `SALT_ERR_CONFIG_INVALID` `details`. */
export type ConfigIssue = z.core.$ZodIssue;

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
    return String(value);
  if (typeof value === 'function') return 'a function';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : 'a list';
  return 'a mapping';
}

/** `nodegroups.web`, `module_dirs[1]`, `external_auth["my backend"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else {
      const name = String(part);
      out += /^[A-Za-z_][\w-]*$/.test(name) ? (out === '' ? name : `.${name}`) : `[${JSON.stringify(name)}]`;
    }
  }
  return out === '' ? '(root)' : out;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const part of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

/** Parse-time error map for issues whose schema set no message of its own. */
export function fallbackMessage(issue: { code?: string; expected?: unknown }): string | undefined {
  if (issue.code === 'invalid_union') return 'expected one of the accepted forms';
  if (issue.code !== 'invalid_type' || typeof issue.expected !== 'string') return undefined;
  const names: Record<string, string> = {
    record: 'a mapping',
    object: 'a mapping',
    array: 'a list',
    int: 'an integer',
  };
  const name = names[issue.expected] ?? `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`;
  return `expected ${name}`;
}

/**
 * Replaces a union issue by the issues of its one branch whose type matched (a mapping of
 * nodegroups with one bad target says which target), so messages point at the bad leaf.
 */
export function unwrapUnionIssues(issues: readonly ConfigIssue[]): ConfigIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union') return [issue];
    const matched = issue.errors.filter(
      (branch) => !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
    );
    const [branch] = matched;
    if (matched.length !== 1 || branch === undefined) return [issue];
    return unwrapUnionIssues(branch.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
  });
}

/**
 * One line per issue: `ret_port: expected an integer from 1 to 65535, got "abc"`, followed by
 * ` (set in <source>)` when `sourceOf` names where the top-level key came from.
 */
export function formatIssues(
  issues: readonly ConfigIssue[],
  input: Record<string, unknown>,
  sourceOf: (key: string) => string | undefined = () => undefined,
): string {
  return unwrapUnionIssues(issues)
    .map((issue) => {
      const line = `  ${formatPath(issue.path)}: ${issue.message}, got ${describeValue(valueAt(input, issue.path))}`;
      const top = issue.path[0];
      const source = typeof top === 'string' ? sourceOf(top) : undefined;
      return source === undefined ? line : `${line} (set in ${source})`;
    })
    .join('\n');
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((row[j] as number) + 1, (row[j - 1] as number) + 1, prev + cost);
      prev = saved;
    }
  }
  return row[b.length] as number;
}

/** The known option closest to `name`, if it is a likely typo. */
export function suggestOption(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.min(3, Math.floor(name.length / 4)));
  for (const candidate of known) {
    const distance = editDistance(name, candidate);
    if (distance <= bestDistance && (best === undefined || distance < bestDistance)) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** `unknown option "ret_prot" (set in /etc/salt/master): tsalt ignores it; did you mean "ret_port"?` */
export function unknownOptionWarning(name: string, known: readonly string[], source?: string): string {
  const where = source === undefined ? '' : ` (set in ${source})`;
  const suggestion = suggestOption(name, known);
  const hint = suggestion === undefined ? '' : `; did you mean "${suggestion}"?`;
  return `unknown option "${name}"${where}: tsalt does not use it, it is kept in config.extra${hint}`;
}
