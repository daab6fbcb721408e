/**
 * `--out=json` (`salt/output/json_out.py`): Python's `json.dumps(data, indent=4,
 * ensure_ascii=False, default=repr)`. Indent 4 by default, `--out-indent N` for N spaces
 * (0 puts items on their own lines unindented), a negative N for one line with Python's
 * `", "` and `": "` separators. Values JSON cannot hold print as their Python `repr()`.
 */
import {
  pyFloatRepr,
  pyIntRepr,
  pyRepr,
  pyRstrip,
  pySortedEntries,
  pyValue,
} from '../kernel/python/index.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';

/** Raised inside the encoder where Python's json raises TypeError (a key it cannot convert). */
class Unserializable {}

const ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\"',
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
};

/** A JSON string as Python writes it with `ensure_ascii=False`: only `"`, `\` and C0 escaped. */
export function pyJsonString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    if (ch === '"' || ch === '\\' || code < 0x20) {
      out += ESCAPES[ch] ?? `\\u${code.toString(16).padStart(4, '0')}`;
    } else {
      out += ch;
    }
  }
  return `${out}"`;
}

function floatText(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'Infinity';
  if (x === Number.NEGATIVE_INFINITY) return '-Infinity';
  return pyFloatRepr(x);
}

/** A dict key as json.dumps converts it; non-scalar keys make Python raise TypeError. */
function keyText(k: unknown): string {
  const p = pyValue(k);
  switch (p.kind) {
    case 'str':
      return p.value;
    case 'none':
      return 'null';
    case 'bool':
      return p.value ? 'true' : 'false';
    case 'int':
      return pyIntRepr(p.value);
    case 'float':
      return floatText(p.value);
    default:
      throw new Unserializable();
  }
}

interface JsonStyle {
  indent: string | undefined;
  sortKeys: boolean;
}

function encode(v: unknown, style: JsonStyle, depth: number): string {
  const p = pyValue(v);
  switch (p.kind) {
    case 'none':
      return 'null';
    case 'bool':
      return p.value ? 'true' : 'false';
    case 'int':
      return pyIntRepr(p.value);
    case 'float':
      return floatText(p.value);
    case 'str':
      return pyJsonString(p.value);
    case 'list':
    case 'dict':
      break;
    default:
      return pyJsonString(pyRepr(v));
  }
  let parts: string[];
  if (p.kind === 'list') {
    if (p.value.length === 0) return '[]';
    parts = p.value.map((x) => encode(x, style, depth + 1));
  } else {
    if (p.value.length === 0) return '{}';
    const entries = style.sortKeys ? pySortedEntries(p.value) : p.value;
    if (!entries) throw new Unserializable();
    parts = entries.map(([k, x]) => `${pyJsonString(keyText(k))}: ${encode(x, style, depth + 1)}`);
  }
  const [open, close] = p.kind === 'list' ? ['[', ']'] : ['{', '}'];
  if (style.indent === undefined) return `${open}${parts.join(', ')}${close}`;
  const inner = `\n${style.indent.repeat(depth + 1)}`;
  return `${open}${inner}${parts.join(`,${inner}`)}\n${style.indent.repeat(depth)}${close}`;
}

function styleFor(indent: OutputOptions['indent']): JsonStyle {
  if (indent === undefined) return { indent: '    ', sortKeys: false };
  if (indent === 'pretty') return { indent: '    ', sortKeys: true };
  if (indent === null || indent < 0) return { indent: undefined, sortKeys: false };
  return { indent: ' '.repeat(indent), sortKeys: false };
}

/** Python's `json.dumps` of `data` as Salt's json outputter calls it; `{}` where Python fails. */
export function renderJson(data: unknown, opts: OutputOptions): string {
  try {
    return pyRstrip(encode(data, styleFor(opts.indent), 0));
  } catch (err) {
    if (err instanceof Unserializable) return '{}';
    throw err;
  }
}

/** `--out=json`. */
export const jsonOutputter: Outputter = defineOutputter({ name: 'json', render: renderJson });
