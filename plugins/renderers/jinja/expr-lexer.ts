/**
 * Tokens of a Jinja expression (inside `{{ }}` or after a `{% %}` keyword): names, string and
 * number literals, operators. Anything else is a TemplateError.
 */
import { TemplateError } from './values.js';

export type ExprToken =
  | { t: 'name'; v: string }
  | { t: 'str'; v: string }
  | { t: 'num'; v: number; float: boolean }
  | { t: 'op'; v: string };

const OPS = ['//', '**', '==', '!=', '<=', '>=', '(', ')', '[', ']', '{', '}', '.', ',', ':', '|', '~'];
const SINGLE = new Set(['+', '-', '*', '/', '%', '<', '>', '=']);
const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
};

function readString(src: string, start: number): { value: string; end: number } {
  const quote = src[start];
  let out = '';
  let i = start + 1;
  while (i < src.length) {
    const ch = src[i] as string;
    if (ch === quote) return { value: out, end: i + 1 };
    if (ch === '\\' && i + 1 < src.length) {
      const next = src[i + 1] as string;
      // Python's numeric escapes: \ooo, \xhh, \uhhhh, \Uhhhhhhhh
      const num =
        /^[0-7]{1,3}/.exec(src.slice(i + 1, i + 4)) ??
        /^x[0-9a-fA-F]{2}|^u[0-9a-fA-F]{4}|^U[0-9a-fA-F]{8}/.exec(src.slice(i + 1, i + 10));
      if (num) {
        const t = num[0];
        out += String.fromCodePoint(
          Number.parseInt(/^[0-7]/.test(t) ? t : t.slice(1), /^[0-7]/.test(t) ? 8 : 16),
        );
        i += 1 + t.length;
        continue;
      }
      out += ESCAPES[next] ?? `\\${next}`;
      i += 2;
      continue;
    }
    out += ch;
    i++;
  }
  throw new TemplateError('unexpected end of string literal');
}

export function lexExpression(src: string): ExprToken[] {
  const out: ExprToken[] = [];
  let i = 0;
  while (i < src.length) {
    const ch = src[i] as string;
    if (/\s/.test(ch)) {
      i++;
      continue;
    }
    if (ch === '"' || ch === "'") {
      const { value, end } = readString(src, i);
      out.push({ t: 'str', v: value });
      i = end;
      continue;
    }
    const num = /^(?:\d[\d_]*\.\d[\d_]*(?:[eE][-+]?\d+)?|\d[\d_]*(?:[eE][-+]?\d+)?)/.exec(src.slice(i));
    if (num) {
      out.push({ t: 'num', v: Number(num[0].replace(/_/g, '')), float: /[.eE]/.test(num[0]) });
      i += num[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i));
    if (name) {
      out.push({ t: 'name', v: name[0] });
      i += name[0].length;
      continue;
    }
    const op = OPS.find((o) => src.startsWith(o, i));
    if (op) {
      out.push({ t: 'op', v: op });
      i += op.length;
      continue;
    }
    if (SINGLE.has(ch)) {
      out.push({ t: 'op', v: ch });
      i++;
      continue;
    }
    throw new TemplateError(`unexpected character ${JSON.stringify(ch)} in expression`);
  }
  return out;
}
