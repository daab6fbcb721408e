/**
 * How Salt's `mysql` module writes SQL text: identifiers in backquotes (a backquote doubled,
 * `%` doubled for the driver's pyformat, `_` and `%` escaped in a database-level grant),
 * values as quoted literals, and `%(name)s` placeholders filled the way MySQLdb/PyMySQL do
 * (`%%` becomes `%` whether or not there are arguments, as Salt's `_execute` arranges).
 */
import { SALT_ERR_INVOCATION } from '../kernel/index.js';

/** Salt's `quote_identifier`: `` `name` `` with backquotes doubled and `%` as `%%`. */
export function quoteIdentifier(identifier: string, forGrants = false): string {
  let s = identifier.replace(/`/g, '``');
  if (forGrants) s = s.replace(/_/g, '\\_');
  return `\`${s.replace(/%/g, '%%')}\``;
}

const ESCAPES: Record<string, string> = {
  '\0': '\\0',
  '\\': '\\\\',
  '\n': '\\n',
  '\r': '\\r',
  '\x1a': '\\Z',
  "'": "\\'",
  '"': '\\"',
};

/** A value as the driver sends it: NULL, a number, or a string literal with backslash escapes. */
export function sqlLiteral(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  let out = '';
  for (const c of String(value)) out += ESCAPES[c] ?? c;
  return `'${out}'`;
}

/**
 * `qry` with its `%(name)s` placeholders replaced by the literals of `args`; `%%` becomes `%`.
 * @throws SALT_ERR_INVOCATION for a placeholder without a value or a stray `%` (Python's
 *   KeyError / "unsupported format character"), which only a bug in this module can produce
 */
export function formatQuery(qry: string, args: Readonly<Record<string, unknown>> = {}): string {
  if (Object.keys(args).length === 0) return qry.replace(/%%/g, '%');
  return qry.replace(/%(?:\(([^)]*)\)s|%|.?)/gs, (m, key: string | undefined) => {
    if (m === '%%') return '%';
    if (key === undefined || !(key in args)) throw new SALT_ERR_INVOCATION(`bad placeholder ${m} in ${qry}`);
    return sqlLiteral(args[key]);
  });
}

/** Leading numeric parts of a version string (`10.11.19-MariaDB` → [10, 11, 19]). */
function versionParts(v: string): number[] {
  const m = /^\d+(?:\.\d+)*/.exec(v.trim());
  return m ? m[0].split('.').map(Number) : [];
}

/** Salt's `version_cmp` for server versions: -1, 0 or 1 comparing the numeric parts. */
export function versionCmp(a: string, b: string): number {
  const x = versionParts(a);
  const y = versionParts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

/** Salt's `is_true`: true, a nonzero number, or a string naming one (`"true"`, `"1"`). */
export function isTrue(v: unknown): boolean {
  if (v === true) return true;
  if (typeof v === 'number') return v !== 0;
  if (typeof v === 'string') {
    if (/^-?\d+$/.test(v.trim())) return Number(v) !== 0;
    return v.trim().toLowerCase() === 'true';
  }
  return false;
}
