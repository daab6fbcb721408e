/**
 * Python's `textwrap.TextWrapper(width, initial_indent, subsequent_indent).fill(text)` with
 * its defaults (tabs expanded, whitespace made spaces, long words and hyphenated words
 * broken), which the highstate outputter wraps state warnings with.
 */
import { cpLength } from '../../kernel/python/index.js';

const WS = '[\\t\\n\\v\\f\\r ]';
const NWS = '[^\\t\\n\\v\\f\\r ]';
const WP = '[\\p{L}\\p{N}_!"\'&.,?]';
const LT = '[\\p{L}]';
const W = '[\\p{L}\\p{N}_]';
// Python's TextWrapper.wordsep_re: whitespace runs, em-dashes, words split after hyphens.
const WORDSEP = new RegExp(
  `(${WS}+|(?<=${WP})-{2,}(?=${W})|${NWS}+?(?:-(?:(?<=${LT}{2}-)|(?<=${LT}-${LT}-))(?=${LT}-?${LT})|(?=${WS}|$)|(?<=${WP})(?=-{2,}${W})))`,
  'u',
);

function expandTabs(s: string): string {
  let out = '';
  let col = 0;
  for (const ch of s) {
    if (ch === '\t') {
      const n = 8 - (col % 8);
      out += ' '.repeat(n);
      col += n;
    } else {
      out += ch;
      col = ch === '\n' || ch === '\r' ? 0 : col + 1;
    }
  }
  return out;
}

function chunksOf(text: string): string[] {
  return text.split(WORDSEP).filter((c) => c !== '' && c !== undefined);
}

const isBlank = (s: string): boolean => /^[\t\n\v\f\r ]*$/.test(s);

/** `TextWrapper(width=width, initial_indent=first, subsequent_indent=rest).fill(text)`. */
export function wrapFill(text: string, width: number, first: string, rest: string): string {
  const clean = expandTabs(text).replace(/[\t\n\v\f\r]/g, ' ');
  const chunks = chunksOf(clean).reverse();
  const lines: string[] = [];
  while (chunks.length) {
    const line: string[] = [];
    let len = 0;
    const indent = lines.length ? rest : first;
    const room = width - cpLength(indent);
    if (lines.length && isBlank(chunks.at(-1) as string)) chunks.pop();
    while (chunks.length) {
      const n = cpLength(chunks.at(-1) as string);
      if (len + n > room) break;
      line.push(chunks.pop() as string);
      len += n;
    }
    const next = chunks.at(-1);
    if (next !== undefined && cpLength(next) > room) {
      const left = room < 1 ? 1 : room - len;
      const cps = [...next];
      let end = left;
      if (cps.length > left) {
        const hyphen = cps.slice(0, left).lastIndexOf('-');
        if (hyphen > 0 && cps.slice(0, hyphen).some((c) => c !== '-')) end = hyphen + 1;
      }
      line.push(cps.slice(0, end).join(''));
      chunks[chunks.length - 1] = cps.slice(end).join('');
      if (chunks.at(-1) === '') chunks.pop();
    }
    if (line.length && isBlank(line.at(-1) as string)) line.pop();
    if (line.length) lines.push(indent + line.join(''));
  }
  return lines.join('\n');
}
