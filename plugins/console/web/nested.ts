/**
 * Salt's `nested` outputter as text (the default of the `salt` CLI): maps as `key:` with the
 * value indented four spaces under it (`----------` before a nested map), lists as `- item`,
 * `|_` before a list's compound item, strings' lines indented.
 */

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  return String(v);
}

function display(v: unknown, indent: number, prefix: string, out: string[]): void {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object') {
        out.push(`${pad}|_`);
        display(item, indent + 2, Array.isArray(item) ? '- ' : '', out);
      } else display(item, indent, '- ', out);
    }
    return;
  }
  if (v !== null && typeof v === 'object') {
    if (indent) out.push(`${pad}----------`);
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    for (const [k, val] of entries) {
      out.push(`${pad}${prefix}${k}:`);
      display(val, indent + 4, '', out);
    }
    return;
  }
  // an empty string prints no line at all
  if (v === '') return;
  if (typeof v === 'string' && v.includes('\n')) {
    for (const line of v.split('\n')) out.push(`${pad}${prefix}${line}`);
    return;
  }
  out.push(`${pad}${prefix}${scalar(v)}`);
}

/** The lines the nested outputter prints for `value` (none for `''` or `[]`). */
export function nestedLines(value: unknown, indent = 4): string[] {
  const out: string[] = [];
  display(value, indent, '', out);
  return out;
}

/** One minion's return as the nested outputter prints it under the minion's id. */
export function nested(value: unknown, indent = 4): string {
  return nestedLines(value, indent).join('\n');
}
