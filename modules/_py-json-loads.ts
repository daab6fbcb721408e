/**
 * Python's `json.loads` for text: the value (NaN and the Infinities included, as Python reads
 * them), or a `json.decoder.JSONDecodeError` with the message and position CPython's C scanner
 * gives (`Expecting value: line 1 column 1 (char 0)`), which Salt's callers let through to the
 * user (`http.query` with `decode=True` on a body that is not JSON).
 */
import { pythonError } from './_py-exception.js';

class Stop {
  constructor(readonly at: number) {}
}

const WS = new Set([' ', '\t', '\n', '\r']);
const ESCAPES: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The error Python raises for `msg` at `pos` (a UTF-16 index, counted in code points). */
function decodeError(doc: string, msg: string, pos: number): Error {
  const before = doc.slice(0, pos);
  const at = [...before].length;
  const nl = before.lastIndexOf('\n');
  const line = before.split('\n').length;
  const col = nl < 0 ? at + 1 : [...before.slice(nl + 1)].length + 1;
  return pythonError('json.decoder.JSONDecodeError', `${msg}: line ${line} column ${col} (char ${at})`);
}

/** Python's default recursion limit, which its C scanner counts nested arrays and objects against. */
const MAX_DEPTH = 1000;

class Scanner {
  private depth = 0;

  constructor(private readonly s: string) {}

  /** Runs `parse` one level deeper, as the C scanner's `Py_EnterRecursiveCall` does. */
  private nested<T>(kind: 'array' | 'object', parse: () => T): T {
    if (++this.depth > MAX_DEPTH)
      throw pythonError(
        'RecursionError',
        `maximum recursion depth exceeded while decoding a JSON ${kind} from a unicode string`,
      );
    try {
      return parse();
    } finally {
      this.depth--;
    }
  }

  ws(i: number): number {
    while (i < this.s.length && WS.has(this.s[i] as string)) i++;
    return i;
  }

  /** A value starting at `i`: [value, end]; throws Stop(i) when none starts there. */
  value(i: number): [unknown, number] {
    const s = this.s;
    const c = s[i];
    if (c === undefined) throw new Stop(i);
    if (c === '"') return this.string(i + 1);
    if (c === '{') return this.nested('object', () => this.object(i + 1));
    if (c === '[') return this.nested('array', () => this.array(i + 1));
    for (const [word, v] of [
      ['null', null],
      ['true', true],
      ['false', false],
      ['NaN', Number.NaN],
      ['Infinity', Number.POSITIVE_INFINITY],
      ['-Infinity', Number.NEGATIVE_INFINITY],
    ] as const)
      if (s.startsWith(word, i)) return [v, i + word.length];
    const m = /^-?(?:0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?/.exec(s.slice(i));
    if (!m) throw new Stop(i);
    return [Number(m[0]), i + m[0].length];
  }

  private string(end: number): [string, number] {
    const s = this.s;
    const begin = end - 1;
    let out = '';
    for (;;) {
      let j = end;
      while (j < s.length && s[j] !== '"' && s[j] !== '\\') {
        if ((s.charCodeAt(j) as number) < 0x20) throw decodeError(s, 'Invalid control character at', j);
        j++;
      }
      if (j >= s.length) throw decodeError(s, 'Unterminated string starting at', begin);
      out += s.slice(end, j);
      if (s[j] === '"') return [out, j + 1];
      const e = s[j + 1];
      if (e === undefined) throw decodeError(s, 'Unterminated string starting at', begin);
      if (e !== 'u') {
        const ch = ESCAPES[e];
        if (ch === undefined) throw decodeError(s, 'Invalid \\escape', j);
        out += ch;
        end = j + 2;
        continue;
      }
      const code = this.hex4(j + 2);
      end = j + 6;
      if (code >= 0xd800 && code <= 0xdbff && s.startsWith('\\u', end)) {
        const low = this.hex4(end + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          out += String.fromCharCode(code, low);
          end += 6;
          continue;
        }
      }
      out += String.fromCharCode(code);
    }
  }

  private hex4(i: number): number {
    const h = this.s.slice(i, i + 4);
    if (i + 4 >= this.s.length + 1 || !/^[0-9a-fA-F]{4}$/.test(h))
      throw decodeError(this.s, 'Invalid \\uXXXX escape', i - 1);
    return Number.parseInt(h, 16);
  }

  private object(i: number): [Record<string, unknown>, number] {
    const s = this.s;
    const out: Record<string, unknown> = {};
    i = this.ws(i);
    if (s[i] === '}') return [out, i + 1];
    for (;;) {
      if (s[i] !== '"') throw decodeError(s, 'Expecting property name enclosed in double quotes', i);
      const [key, afterKey] = this.string(i + 1);
      i = this.ws(afterKey);
      if (s[i] !== ':') throw decodeError(s, "Expecting ':' delimiter", i);
      const [v, afterValue] = this.value(this.ws(i + 1));
      // a plain assignment to `__proto__` would set the prototype, not a key
      if (key === '__proto__')
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
      i = this.ws(afterValue);
      if (s[i] === '}') return [out, i + 1];
      if (s[i] !== ',') throw decodeError(s, "Expecting ',' delimiter", i);
      i = this.ws(i + 1);
    }
  }

  private array(i: number): [unknown[], number] {
    const s = this.s;
    const out: unknown[] = [];
    i = this.ws(i);
    if (s[i] === ']') return [out, i + 1];
    for (;;) {
      const [v, after] = this.value(i);
      out.push(v);
      i = this.ws(after);
      if (s[i] === ']') return [out, i + 1];
      if (s[i] !== ',') throw decodeError(s, "Expecting ',' delimiter", i);
      i = this.ws(i + 1);
    }
  }
}

/** `json.loads(text)`. */
export function pyJsonLoads(text: string): unknown {
  if (text.startsWith('\ufeff')) throw decodeError(text, 'Unexpected UTF-8 BOM (decode using utf-8-sig)', 0);
  const scanner = new Scanner(text);
  let value: unknown;
  let end: number;
  try {
    [value, end] = scanner.value(scanner.ws(0));
  } catch (err) {
    if (err instanceof Stop) throw decodeError(text, 'Expecting value', err.at);
    throw err;
  }
  end = scanner.ws(end);
  if (end !== text.length) throw decodeError(text, 'Extra data', end);
  return value;
}
