/**
 * Salt's `slsutil.banner` (a "managed by Salt" comment block, wrapped as Python's `textwrap`
 * wraps and centred as `str.center` centres) and `slsutil.boolstr`.
 */

import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pyTruthy } from '../kernel/python/index.js';

/** Python's `textwrap.wrap(text, width)` for plain text: words filled greedily, long words broken. */
export function wrap(text: string, width: number): string[] {
  const words = text.replace(/\t/g, '        ').split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (let word of words) {
    while (word.length > 0) {
      const room = line ? width - line.length - 1 : width;
      if (word.length <= room) {
        line = line ? `${line} ${word}` : word;
        word = '';
        continue;
      }
      // a word longer than a whole line fills what is left of this one (break_long_words)
      if (word.length > width && room > 0) {
        line = line ? `${line} ${word.slice(0, room)}` : word.slice(0, room);
        word = word.slice(room);
      } else if (word.length > width && room === 0 && line) line += ' '; // textwrap keeps the space
      lines.push(line);
      line = '';
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Python's `str.center(width)`: the odd space goes left when `width` is odd. */
export function center(s: string, width: number): string {
  const marg = width - s.length;
  if (marg <= 0) return s;
  const left = Math.floor(marg / 2) + (marg & width & 1);
  return ' '.repeat(left) + s + ' '.repeat(marg - left);
}

export interface BannerOptions {
  width: number;
  commentchar: string;
  borderchar: string;
  blockstart?: string | null;
  blockend?: string | null;
  title?: string | null;
  text?: string | null;
  newline: boolean;
}

const TITLE = 'THIS FILE IS MANAGED BY SALT - DO NOT EDIT';
const TEXT =
  'The contents of this file are managed by Salt. Any changes to this file may be overwritten automatically and without warning.';

/** Salt's `slsutil.banner`. */
export function banner(o: BannerOptions): string {
  const ledge = o.commentchar.trimEnd();
  const redge = o.commentchar.trim();
  const lgutter = `${ledge} `;
  const rgutter = ` ${redge}`;
  const textwidth = o.width - lgutter.length - rgutter.length;
  if (textwidth <= 0) throw new SALT_ERR_EXEC_COMMAND('Width is too small to render banner');
  const border =
    o.commentchar +
    o.borderchar.slice(0, 1).repeat(Math.max(0, o.width - ledge.length - redge.length)) +
    redge;
  const spacer = o.commentchar + ' '.repeat(Math.max(0, o.width - o.commentchar.length * 2)) + o.commentchar;
  const block: string[] = [];
  if (o.blockstart !== undefined && o.blockstart !== null) block.push(o.blockstart);
  block.push(border, spacer);
  for (const line of wrap(o.title ?? TITLE, textwidth))
    block.push(lgutter + center(line, textwidth) + rgutter);
  block.push(spacer);
  for (const line of wrap(o.text ?? TEXT, textwidth))
    block.push(lgutter + line + ' '.repeat(textwidth - line.length) + rgutter);
  block.push(border);
  if (o.blockend !== undefined && o.blockend !== null) block.push(o.blockend);
  const result = block.join('\n');
  return o.newline ? `${result}\n` : result;
}

/** Salt's `slsutil.boolstr`: `true` or `false` by the value's Python truthiness. */
export function boolstr(value: unknown, yes: unknown, no: unknown): unknown {
  return pyTruthy(value) ? yes : no;
}
