/**
 * Salt's `file.line` (`salt/modules/file.py` `line` and its `_set_line` helpers): one line of a
 * file ensured, replaced, deleted or inserted, located by `match`, `before`, `after` (each a
 * Python regular expression or a plain fragment of the line) or `location`. Salt's quirks are
 * kept on purpose, since SLS files written for Salt rely on them: indentation copied from a
 * neighbouring line, the first matching line's text used as the key, end-of-line repair after
 * the edit. Returns the unified diff, or whether the file changed.
 */
import { copyFile, readFile, realpath } from 'node:fs/promises';
import { writeReplacing } from './_file-atomic.js';
import { readLines, unifiedDiff } from './_file-diff.js';
import { pyRegex } from './_file-edit.js';
import { FileError } from './_file-source.js';
import { isFile } from './_file-stat.js';

export const LINE_MODES = ['insert', 'ensure', 'delete', 'replace'] as const;

export interface LineOptions {
  content?: string | null;
  match?: string | null;
  mode?: string | null;
  location?: string | null;
  before?: string | null;
  after?: string | null;
  showChanges?: boolean;
  backup?: boolean | string;
  quiet?: boolean;
  indent?: boolean;
  /** `__opts__['test']`: compute, write nothing. */
  test?: boolean;
}

/** The lines matching `regex` as a regular expression (dot matches newlines) or containing it. */
function regexToStatic(lines: readonly string[], regex: string | null | undefined): string[] | null {
  if (!lines.length || !regex) return null;
  let re: RegExp;
  try {
    re = pyRegex(regex, 's');
  } catch (err) {
    throw new FileError(`${(err as Error).message}: '${regex}'`);
  }
  return lines.filter((line) => re.test(line) || line.includes(regex));
}

/** Exactly one line must match `before`/`after`. */
function assertOne(probe: readonly string[] | null, target: string): void {
  const n = probe?.length ?? 0;
  if (n === 1) return;
  throw new FileError(
    `Found ${n > 1 ? 'more than' : 'less than'} expected occurrences in "${target}" expression`,
  );
}

/** `line`'s text with the leading blanks of `src` (unless indent is off). */
function withIndent(src: string, line: string, indent: boolean): string {
  if (!indent) return line;
  const lead = /^[ \t]*/.exec(src)?.[0] ?? '';
  return lead + line.replace(/^\s+/, '');
}

/** The line ending of `line`, or ''. */
function eolOf(line: string): string {
  return /(\r\n|(?<!\r)\n|\r(?!\n))$/.exec(line)?.[0] ?? '';
}

/** `line` stripped at the right and ended like `src` (or with `\n`). */
function withEol(src: string, line: string): string {
  return line.replace(/\s+$/, '') + (eolOf(src) || '\n');
}

/** Python's `list[i]` with negative indexes. */
function at(lines: readonly string[], i: number): string {
  return lines[i < 0 ? lines.length + i : i] ?? '';
}

const sameLine = (a: string | undefined, b: string) =>
  a !== undefined && a.replace(/[\r\n]+$/, '') === b.replace(/[\r\n]+$/, '');

type Found = string[] | null;

function insertLine(lines: string[], content: string, o: LineOptions, before: Found, after: Found): string[] {
  const indent = o.indent ?? true;
  if (o.before == null && o.after == null && o.location == null)
    throw new FileError('On insert either "location" or "before/after" conditions are required.');
  if (o.location) {
    if (o.location === 'end') lines.push(lines.length ? withIndent(at(lines, -1), content, indent) : content);
    else if (o.location === 'start') {
      if (lines.length) lines.unshift(withEol(lines[0]!, content));
      else return [`${content}\n`];
    }
    return lines;
  }
  if (before?.length && after?.length) {
    assertOne(before, 'before');
    assertOne(after, 'after');
    const last = lines.indexOf(before[0]!);
    lines.splice(last, 0, withIndent(lines[last]!, content, indent));
  } else if (after?.length) {
    assertOne(after, 'after');
    const idx = lines.indexOf(after[0]!);
    if (!sameLine(lines[idx + 1], content))
      lines.splice(idx + 1, 0, withIndent(lines[idx]!, content, indent));
  } else if (before?.length) {
    assertOne(before, 'before');
    const idx = lines.indexOf(before[0]!);
    if (!sameLine(at(lines, idx - 1), content))
      lines.splice(idx, 0, withIndent(lines[idx]!, content, indent));
  } else throw new FileError('Neither before or after was found in file');
  return lines;
}

function ensureLine(
  lines: string[],
  content: string,
  indent: boolean,
  before: Found,
  after: Found,
): string[] {
  if (before?.length && after?.length) {
    assertOne(after, 'after');
    assertOne(before, 'before');
    const ai = lines.indexOf(after[0]!);
    const bi = lines.indexOf(before[0]!);
    if (!lines.some((l) => l.replace(/^\s+/, '') === content)) {
      if (ai + 1 === bi) lines.splice(ai + 1, 0, withIndent(lines[ai]!, content, indent));
      else if (ai + 2 === bi) lines[ai + 1] = withIndent(lines[ai]!, content, indent);
      else throw new FileError('Found more than one line between boundaries "before" and "after".');
    }
  } else if (before?.length) {
    assertOne(before, 'before');
    const bi = lines.indexOf(before[0]!);
    if (bi === 0 || !sameLine(lines[bi - 1], content))
      lines.splice(bi, 0, withIndent(at(lines, bi - 1), content, indent));
  } else if (after?.length) {
    assertOne(after, 'after');
    const ai = lines.indexOf(after[0]!);
    if (ai + 1 >= lines.length || !sameLine(lines[ai + 1], content))
      lines.splice(ai + 1, 0, withIndent(lines[ai]!, content, indent));
  } else
    throw new FileError(
      'Wrong conditions? Unable to ensure line without knowing where to put it before and/or after.',
    );
  return lines;
}

/** Salt's `_set_line`: the edited list of lines (ends kept, new lines without one). */
export function setLine(input: readonly string[], o: LineOptions): string[] {
  let lines = [...input];
  const mode = o.mode;
  const indent = o.indent ?? true;
  const content = o.content ?? '';
  let matchRe = o.match;
  if (!matchRe && o.before == null && o.after == null) matchRe = o.content;
  const after = regexToStatic(lines, o.after);
  const before = regexToStatic(lines, o.before);
  const match = regexToStatic(lines, matchRe);
  if (!lines.length && (mode === 'delete' || mode === 'replace')) return [];
  if (mode === 'delete' && match?.length) return lines.filter((l) => l !== match[0]);
  if (mode === 'replace' && match?.length) {
    const idx = lines.indexOf(match[0]!);
    lines[idx] = withIndent(lines[idx]!, content, indent);
    return lines;
  }
  if (mode === 'insert') lines = insertLine(lines, content, o, before, after);
  else if (mode === 'ensure') lines = ensureLine(lines, content, indent, before, after);
  return lines;
}

function stamp(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}-${p(d.getMinutes())}-${p(d.getSeconds())}`;
}

/** Salt's `file.line`: the diff when `showChanges` and something changed, else whether it changed. */
export async function editLine(path: string, o: LineOptions): Promise<string | boolean> {
  const expanded =
    path === '~' || path.startsWith('~/') ? (process.env.HOME ?? '/root') + path.slice(1) : path;
  const real = await realpath(expanded).catch(() => expanded);
  if (!(await isFile(real))) {
    if (!o.quiet) throw new FileError(`File "${real}" does not exists or is not a file.`);
    return false;
  }
  const mode = o.mode ? o.mode.toLowerCase() : o.mode;
  if (!mode) throw new FileError('Mode was not defined. How to process the file?');
  if (!(LINE_MODES as readonly string[]).includes(mode)) throw new FileError(`Unknown mode: "${mode}"`);
  if (mode !== 'delete' && (o.content === null || o.content === undefined))
    throw new FileError('Content can only be empty if mode is "delete"');
  const text = (await readFile(real, 'utf8')).replace(/\r\n?/g, '\n');
  let body = readLines(text);
  if (body.length && eolOf(at(body, -1))) body.push('');
  if (!text.length && (mode === 'delete' || mode === 'replace')) body = [];
  body = setLine(body, { ...o, mode });
  for (let i = 0; i < body.length; i++) {
    if (!eolOf(body[i]!) && i + 1 < body.length) body[i] = withEol(body[i ? i - 1 : 1]!, body[i]!);
  }
  if (body.length && at(body, -1) === '') body.pop();
  const out = body.join('');
  const changed = out !== text;
  if (o.backup && changed && !o.test) await copyFile(real, `${real}.${stamp(new Date())}`);
  let diff = '';
  if (changed) {
    if (o.showChanges ?? true) diff = unifiedDiff(readLines(text), body);
    if (!o.test) await writeReplacing(real, out);
  }
  return (o.showChanges ?? true) && diff ? diff : changed;
}
