/**
 * JSON as Python's `json.dumps` writes it (what salt-api answers): `", "` and `": "`
 * separators and non-ASCII escaped as `\uXXXX`, so bodies match salt-api byte for byte.
 */

function escapeString(s: string): string {
  return JSON.stringify(s).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Serializes `value`; `undefined` members are left out, as JSON.stringify does. */
export function pyJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return escapeString(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? String(value) : value > 0 ? 'Infinity' : value < 0 ? '-Infinity' : 'NaN';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (Buffer.isBuffer(value) || value instanceof Uint8Array)
    return escapeString(Buffer.from(value).toString('utf8'));
  if (Array.isArray(value)) return `[${value.map((v) => pyJson(v === undefined ? null : v)).join(', ')}]`;
  if (value instanceof Date) return escapeString(value.toISOString());
  if (typeof value === 'object') {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) {
      if (v === undefined || typeof v === 'function') continue;
      parts.push(`${escapeString(k)}: ${pyJson(v)}`);
    }
    return `{${parts.join(', ')}}`;
  }
  return 'null';
}
