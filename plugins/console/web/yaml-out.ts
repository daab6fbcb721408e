/** A value as block YAML (the `--out yaml` view): maps and lists indented two spaces, strings quoted when YAML would misread them. */

function str(s: string): string {
  if (s === '' || /^[\s]|[\s]$|^[-?:,[\]{}#&*!|>'"%@`~]|: | #|\n/.test(s)) return JSON.stringify(s);
  if (/^(?:true|false|yes|no|on|off|null|~|[-+]?[\d.]+(?:e[-+]?\d+)?)$/i.test(s)) return `'${s}'`;
  return s;
}

function scalar(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return str(v);
  return String(v);
}

function lines(v: unknown, indent: string, out: string[]): void {
  if (Array.isArray(v)) {
    for (const item of v) {
      if (item !== null && typeof item === 'object' && Object.keys(item).length > 0) {
        const sub: string[] = [];
        lines(item, '', sub);
        out.push(`${indent}- ${sub[0]?.trimStart() ?? ''}`);
        for (const l of sub.slice(1)) out.push(`${indent}  ${l}`);
      } else out.push(`${indent}- ${empty(item) ?? scalar(item)}`);
    }
    return;
  }
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    const e = empty(val);
    if (e !== undefined || val === null || typeof val !== 'object')
      out.push(`${indent}${str(k)}: ${e ?? scalar(val)}`);
    else {
      out.push(`${indent}${str(k)}:`);
      lines(val, `${indent}  `, out);
    }
  }
}

function empty(v: unknown): string | undefined {
  if (Array.isArray(v) && v.length === 0) return '[]';
  if (v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) return '{}';
  return undefined;
}

export function toYaml(v: unknown): string {
  const e = empty(v);
  if (e !== undefined || v === null || typeof v !== 'object') return e ?? scalar(v);
  const out: string[] = [];
  lines(v, '', out);
  return out.join('\n');
}
