/**
 * Splits a template into text, `{{ output }}` and `{% tag %}` pieces (comments `{# #}` are
 * dropped, `{% raw %}` blocks kept as text), with their 1-based line and column and Jinja's
 * `-` whitespace control (Jinja2's lexer with Salt's defaults: no trim_blocks/lstrip_blocks).
 */
import { TemplateError } from './values.js';

export type Piece =
  | { type: 'text'; value: string; line: number }
  | { type: 'output'; source: string; line: number; col: number }
  | { type: 'tag'; source: string; line: number; col: number };

const CLOSE: Record<string, string> = { '{{': '}}', '{%': '%}', '{#': '#}' };

function lineAt(src: string, index: number, from: { index: number; line: number }): number {
  let line = from.line;
  for (let i = from.index; i < index; i++) if (src.charCodeAt(i) === 10) line++;
  from.index = index;
  from.line = line;
  return line;
}

/** Where the closing delimiter of a `{{`/`{%` block starts, skipping strings and nested braces. */
function findClose(src: string, start: number, close: string): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = start; i < src.length; i++) {
    const ch = src[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    else if (depth === 0 && src.startsWith(close, i)) return i;
    else if (ch === '{' || ch === '[' || ch === '(') depth++;
    else if ((ch === '}' || ch === ']' || ch === ')') && depth > 0) depth--;
  }
  return -1;
}

export function lexTemplate(src: string): Piece[] {
  const pieces: Piece[] = [];
  const cursor = { index: 0, line: 1 };
  let pos = 0;
  let stripNext = false;
  const pushText = (text: string, at: number): void => {
    const value = stripNext ? text.replace(/^\s+/, '') : text;
    stripNext = false;
    if (value) pieces.push({ type: 'text', value, line: lineAt(src, at, cursor) });
  };
  while (pos < src.length) {
    const open = /\{[{%#]/g;
    open.lastIndex = pos;
    const m = open.exec(src);
    if (!m) {
      pushText(src.slice(pos), pos);
      break;
    }
    const kind = m[0];
    const start = m.index;
    let inner = start + 2;
    let text = src.slice(pos, start);
    if (src[inner] === '-') {
      text = text.replace(/\s+$/, '');
      inner++;
    }
    pushText(text, pos);
    const line = lineAt(src, start, cursor);
    const close = CLOSE[kind] as string;
    const end = kind === '{#' ? src.indexOf(close, inner) : findClose(src, inner, close);
    if (end < 0) {
      const what = kind === '{{' ? 'variable' : kind === '{%' ? 'block' : 'comment';
      throw new TemplateError(
        `unexpected end of template: the ${what} opened here is not closed with '${close}'`,
        line,
      );
    }
    let body = src.slice(inner, end);
    if (body.endsWith('-')) {
      body = body.slice(0, -1);
      stripNext = true;
    }
    const col = start - src.lastIndexOf('\n', start - 1);
    if (kind === '{{') pieces.push({ type: 'output', source: body.trim(), line, col });
    else if (kind === '{%' && /^raw$/.test(body.trim())) {
      // everything up to {% endraw %} is text
      const endRaw = /\{%-?\s*endraw\s*-?%\}/g;
      endRaw.lastIndex = end + 2;
      const r = endRaw.exec(src);
      if (!r)
        throw new TemplateError(
          "unexpected end of template: '{% raw %}' is not closed with '{% endraw %}'",
          line,
        );
      let raw = src.slice(end + 2, r.index);
      if (stripNext) raw = raw.replace(/^\s+/, '');
      if (r[0].startsWith('{%-')) raw = raw.replace(/\s+$/, '');
      stripNext = r[0].endsWith('-%}');
      if (raw) pieces.push({ type: 'text', value: raw, line });
      pos = r.index + r[0].length;
      continue;
    } else if (kind === '{%') pieces.push({ type: 'tag', source: body.trim(), line, col });
    pos = end + 2;
  }
  return pieces;
}
