/**
 * Python's `repr()` and `str()` of the values Salt returns and job data hold (see
 * {@link pyValue}), for the outputters and for the messages Salt builds from job data:
 * `{'m1': True}`, `'it\'s'`, `b'\x00'`, `('a', 1)`.
 */
import type { SaltConstant, SaltDatetime } from '../serial/salt-types.js';
import { pyFloatRepr, pyIntRepr, pyValue } from './value.js';

/** Characters `str.isprintable()` rejects: Other and Separator categories, except the space. */
const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');

/** The quote Python picks: `"` only when the text has a `'` and no `"`. */
function pickQuote(hasSingle: boolean, hasDouble: boolean): string {
  return hasSingle && !hasDouble ? '"' : "'";
}

/** Python's `repr(str)`. */
export function pyStrRepr(s: string): string {
  const quote = pickQuote(s.includes("'"), s.includes('"'));
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === quote || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f) out += ch;
    else if (!NON_PRINTABLE.test(ch)) out += ch;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

/** Python's `repr(bytes)`: `b'...'`, printable ASCII as is, the rest `\xhh`. */
export function pyBytesRepr(b: Uint8Array): string {
  const quote = pickQuote(b.includes(0x27), b.includes(0x22));
  const q = quote.charCodeAt(0);
  let out = `b${quote}`;
  for (const byte of b) {
    if (byte === q || byte === 0x5c) out += `\\${String.fromCharCode(byte)}`;
    else if (byte === 0x0a) out += '\\n';
    else if (byte === 0x0d) out += '\\r';
    else if (byte === 0x09) out += '\\t';
    else if (byte < 0x20 || byte >= 0x7f) out += `\\x${hex(byte, 2)}`;
    else out += String.fromCharCode(byte);
  }
  return out + quote;
}

/** Python's `repr(datetime)`: `datetime.datetime(2024, 1, 2, 3, 4)`, zero seconds/µs left out. */
export function pyDatetimeRepr(dt: SaltDatetime): string {
  const fields = [dt.year, dt.month, dt.day, dt.hour, dt.minute, dt.second, dt.microsecond];
  if (fields[6] === 0) {
    fields.pop();
    if (fields[5] === 0) fields.pop();
  }
  return `datetime.datetime(${fields.join(', ')})`;
}

/** Python's `str(datetime)`: `datetime.isoformat(' ')`. */
export function pyDatetimeStr(dt: SaltDatetime): string {
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  const base = `${p(dt.year, 4)}-${p(dt.month)}-${p(dt.day)} ${p(dt.hour)}:${p(dt.minute)}:${p(dt.second)}`;
  return dt.microsecond ? `${base}.${p(dt.microsecond, 6)}` : base;
}

/** Python truthiness of a value. */
export function pyTruthy(v: unknown): boolean {
  const p = pyValue(v);
  switch (p.kind) {
    case 'none':
      return false;
    case 'bool':
      return p.value;
    case 'int':
    case 'float':
      return p.value !== 0 && p.value !== 0n;
    case 'str':
      return p.value !== '';
    case 'bytes':
    case 'list':
    case 'tuple':
    case 'dict':
      return p.value.length > 0;
    default:
      return true;
  }
}

/** `repr()` of salt.defaults._Constant: `<Constant.NOT_SET>` or `<Constant.X value=...>`. */
export function pyConstantRepr(c: SaltConstant): string {
  return pyTruthy(c.value) ? `<Constant.${c.name} value=${pyStr(c.value)}>` : `<Constant.${c.name}>`;
}

function reprIn(v: unknown, seen: object[]): string {
  const p = pyValue(v);
  switch (p.kind) {
    case 'none':
      return 'None';
    case 'bool':
      return p.value ? 'True' : 'False';
    case 'int':
      return pyIntRepr(p.value);
    case 'float':
      return pyFloatRepr(p.value);
    case 'str':
      return pyStrRepr(p.value);
    case 'bytes':
      return pyBytesRepr(p.value);
    case 'datetime':
      return pyDatetimeRepr(p.value);
    case 'constant':
      return pyConstantRepr(p.value);
    case 'other':
      return String(p.value);
    default:
      break;
  }
  const obj = v as object;
  if (seen.includes(obj)) return p.kind === 'list' ? '[...]' : p.kind === 'tuple' ? '(...)' : '{...}';
  seen.push(obj);
  try {
    if (p.kind === 'list') return `[${p.value.map((x) => reprIn(x, seen)).join(', ')}]`;
    if (p.kind === 'tuple') {
      const items = p.value.map((x) => reprIn(x, seen));
      return items.length === 1 ? `(${items[0]},)` : `(${items.join(', ')})`;
    }
    return `{${p.value.map(([k, x]) => `${reprIn(k, seen)}: ${reprIn(x, seen)}`).join(', ')}}`;
  } finally {
    seen.pop();
  }
}

/** Python's `repr()` of a return value; dicts keep insertion order, as Python 3.7+ dicts do. */
export function pyRepr(v: unknown): string {
  return reprIn(v, []);
}

/** Python's `str()`: the text itself for str, `isoformat(' ')` for datetimes, else `repr()`. */
export function pyStr(v: unknown): string {
  const p = pyValue(v);
  if (p.kind === 'str') return p.value;
  if (p.kind === 'datetime') return pyDatetimeStr(p.value);
  return pyRepr(v);
}
