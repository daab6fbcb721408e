/**
 * YAML as Salt's `yaml` serializer writes it for `file.serialize` (`salt/serializers/yaml.py`:
 * PyYAML's `dump(default_flow_style=False)`, sorted keys, the final newline cut): block style,
 * list items at their key's indentation, and PyYAML's choice of plain, single- or
 * double-quoted scalars (quoted when a reader would take the text for another type).
 */
import { pyFloatRepr, SaltFloat } from '../kernel/util.js';

const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;
const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const TIMESTAMP =
  /^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$/;

function resolvesToOther(s: string): boolean {
  return (
    BOOL.test(s) ||
    NULL.test(s) ||
    INT.test(s) ||
    FLOAT.test(s) ||
    TIMESTAMP.test(s) ||
    s === '<<' ||
    s === '='
  );
}

function needsQuotes(s: string): boolean {
  if (resolvesToOther(s)) return true;
  if (/^\s|\s$/.test(s)) return true;
  if (/^[#,[\]{}&*!|>'"%@`]/.test(s)) return true;
  if (/^[-?:](\s|$)/.test(s)) return true;
  if (s.includes(': ') || s.includes(' #') || s.endsWith(':')) return true;
  return s.includes('\n');
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c <= 0xff) out += `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
    else if (c <= 0xffff) out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += `\\U${c.toString(16).toUpperCase().padStart(8, '0')}`;
  }
  return `${out}"`;
}

/** PyYAML's float: `repr`, with `.inf`/`.nan` spelled its way. */
function yamlFloat(x: number): string {
  if (Number.isNaN(x)) return '.nan';
  if (!Number.isFinite(x)) return x > 0 ? '.inf' : '-.inf';
  return pyFloatRepr(x);
}

function scalar(v: unknown, indent: number): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof SaltFloat) return yamlFloat(v.value);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return '.nan';
    if (!Number.isFinite(v)) return v > 0 ? '.inf' : '-.inf';
    return String(v);
  }
  if (typeof v === 'bigint') return String(v);
  const s = String(v);
  // non-printable or non-ASCII text: double-quoted with escapes (allow_unicode is off)
  if (/[^\x20-\x7e\n]/.test(s)) return doubleQuoted(s);
  if (!needsQuotes(s)) return s;
  const pad = ' '.repeat(indent + 2);
  return `'${s.replace(/'/g, "''").replace(/\n/g, `\n\n${pad}`)}'`;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof SaltFloat);

function key(k: string): string {
  return scalar(k, 0);
}

function block(v: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (isMap(v)) {
    const keys = Object.keys(v).sort();
    if (!keys.length) return [`${pad}{}`];
    const out: string[] = [];
    for (const k of keys) {
      const val = v[k];
      if (isMap(val) && Object.keys(val).length) out.push(`${pad}${key(k)}:`, ...block(val, indent + 2));
      else if (Array.isArray(val) && val.length) out.push(`${pad}${key(k)}:`, ...block(val, indent));
      else out.push(`${pad}${key(k)}: ${inline(val, indent)}`);
    }
    return out;
  }
  if (Array.isArray(v)) {
    if (!v.length) return [`${pad}[]`];
    const out: string[] = [];
    for (const item of v) {
      if ((isMap(item) && Object.keys(item).length) || (Array.isArray(item) && item.length)) {
        const inner = block(item, indent + 2);
        out.push(`${pad}- ${inner[0]!.slice(indent + 2)}`, ...inner.slice(1));
      } else out.push(`${pad}- ${inline(item, indent)}`);
    }
    return out;
  }
  return [`${pad}${scalar(v, indent)}`];
}

function inline(v: unknown, indent: number): string {
  if (isMap(v)) return '{}';
  if (Array.isArray(v)) return '[]';
  return scalar(v, indent);
}

/** Salt's `yaml.serialize(data, default_flow_style=False)`: no final newline. */
export function saltYamlSerialize(data: unknown): string {
  if (!isMap(data) && !Array.isArray(data)) return `${scalar(data, 0)}\n...`.replace(/\n\.\.\.$/, '');
  return block(data, 0).join('\n');
}
