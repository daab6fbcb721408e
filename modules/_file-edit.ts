/**
 * In-place text edits of Salt's `file` module (`file.search`, `file.replace`,
 * `file.blockreplace`, `file.comment_line`, `file.append`, `file.prepend`): Python regular
 * expressions translated to JavaScript's, the file rewritten in place or replaced where Salt
 * replaces it (owner and mode kept either way),
 * and the unified diff of what changed returned as Salt returns it.
 */
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { writeReplacing } from './_file-atomic.js';
import { diffBuffers, readLines, unifiedDiff } from './_file-diff.js';
import { FileError } from './_file-source.js';
import { isFile } from './_file-stat.js';

/** Python regex syntax JavaScript spells differently: named groups, `\Z`, `\A`, inline flags. */
export function pyRegex(pattern: string, flags = ''): RegExp {
  let src = pattern.replace(/\(\?P<(\w+)>/g, '(?<$1>').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
  src = src.replace(/\\Z/g, '$(?![\\s\\S])').replace(/\\A/g, '^(?<![\\s\\S])');
  let f = flags;
  const inline = /^\(\?([aiLmsux]+)\)/.exec(src);
  if (inline) {
    src = src.slice(inline[0].length);
    for (const c of inline[1]!) if ('ims'.includes(c) && !f.includes(c)) f += c;
  }
  return new RegExp(src, f);
}

/** Python's `re.sub` replacement string (`\1`, `\g<1>`, `\g<name>`, `\n`) as a replacer. */
export function pyRepl(repl: string): (m: string, ...rest: unknown[]) => string {
  return (m, ...rest) => {
    const last = rest[rest.length - 1];
    const named = typeof last === 'object' && last !== null ? (last as Record<string, string>) : {};
    const groups = rest.filter((x) => typeof x === 'string' || x === undefined) as Array<string | undefined>;
    return repl.replace(/\\(g<(\w+)>|\d{1,2}|n|t|r|\\)/g, (_all, what: string, g: string | undefined) => {
      if (g !== undefined)
        return (/^\d+$/.test(g) ? (g === '0' ? m : groups[Number(g) - 1]) : named[g]) ?? '';
      if (what === 'n') return '\n';
      if (what === 't') return '\t';
      if (what === 'r') return '\r';
      if (what === '\\') return '\\';
      return groups[Number(what) - 1] ?? '';
    });
  };
}

/** Python flags (a list of names or the int) → JS flag letters; Salt's default is MULTILINE (8). */
export function jsFlags(flags: unknown): string {
  let f = 'g';
  const names = Array.isArray(flags) ? flags.map((x) => String(x).toUpperCase()) : [];
  const n = typeof flags === 'number' ? flags : Number.NaN;
  const has = (name: string, bit: number) => names.includes(name) || (!Number.isNaN(n) && (n & bit) !== 0);
  if (has('IGNORECASE', 2)) f += 'i';
  if (has('MULTILINE', 8)) f += 'm';
  if (has('DOTALL', 16)) f += 's';
  return f;
}

/** Salt's `file.search` (the file as one text, MULTILINE): whether `pattern` matches. */
export async function searchFile(
  path: string,
  pattern: string,
  multiline = false,
  flags: unknown = 8,
): Promise<boolean> {
  if (!(await isFile(path))) throw new FileError(`Unable to open file '${path}'`);
  const text = await readFile(path, 'utf8');
  let f = jsFlags(flags).replace('g', '');
  if (multiline && !f.includes('m')) f += 'm';
  if (multiline && !f.includes('s')) f += 's';
  return pyRegex(pattern, f).test(text);
}

/**
 * Writes new text over `path`, with an optional `<path><backup>` copy: in place (the inode, owner
 * and mode kept), or, where Salt uses `atomic_open`, as a new file renamed over it.
 */
async function rewrite(path: string, text: string, backup: string | false, replacing = false): Promise<void> {
  if (backup) await copyFile(path, `${path}${backup}`);
  await (replacing ? writeReplacing(path, text) : writeFile(path, text));
}

export interface ReplaceOptions {
  count?: number;
  flags?: unknown;
  appendIfNotFound?: boolean;
  prependIfNotFound?: boolean;
  notFoundContent?: string | null;
  backup?: string | false;
  dryRun?: boolean;
  showChanges?: boolean;
  ignoreIfMissing?: boolean;
  /** False: the file is replaced (a new inode), as Salt's `preserve_inode=False`; appending always replaces. */
  preserveInode?: boolean;
}

/** Salt's `file.replace`: the diff (or `true`) when the file changed or would change, else `false`. */
export async function replaceInFile(
  path: string,
  pattern: string,
  repl: string,
  o: ReplaceOptions = {},
): Promise<string | boolean> {
  if (!(await isFile(path))) {
    if (o.ignoreIfMissing) return false;
    throw new FileError(`${path}: Path not found`);
  }
  const old = await readFile(path);
  const text = old.toString('utf8');
  const re = pyRegex(pattern, jsFlags(o.flags ?? 8));
  let n = 0;
  const max = o.count ?? 0;
  let next = text.replace(re, (...args: unknown[]) => {
    if (max && n >= max) return args[0] as string;
    n++;
    return pyRepl(repl)(...(args as [string, ...unknown[]]));
  });
  const found = n > 0 || pyRegex(pattern, jsFlags(o.flags ?? 8).replace('g', '')).test(text);
  const adding = !found && (o.appendIfNotFound || o.prependIfNotFound);
  if (adding) {
    const add = o.notFoundContent ?? repl;
    if (!text.includes(add)) {
      if (o.prependIfNotFound) next = `${add}\n${text}`;
      else next = `${text}${text && !text.endsWith('\n') ? '\n' : ''}${add}\n`;
    }
  }
  if (next === text) return false;
  if (!o.dryRun) await rewrite(path, next, o.backup ?? '.bak', adding || o.preserveInode === false);
  if (o.showChanges === false) return true;
  return diffBuffers(old, Buffer.from(next));
}

/** Salt's `file.comment_line`: comments (or uncomments) the lines matching `regex`; the diff, or false. */
export async function commentLine(
  path: string,
  regex: string,
  char = '#',
  cmnt = true,
  backup: string | false = '.bak',
): Promise<string | false> {
  const core = regex.replace(/^\^+/, '').replace(/\$+$/, '');
  const made = cmnt
    ? pyRegex(`${regex.startsWith('^') ? '^' : ''}(${core})${regex.endsWith('$') ? '$' : ''}`)
    : pyRegex(
        `^${char.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(${core})${regex.endsWith('$') ? '$' : ''}`,
      );
  // Python's re.match: anchored at the start of the line
  const re = new RegExp(made.source, `${made.flags}y`);
  if (!(await isFile(path))) throw new FileError(`File not found: ${path}`);
  const lines = readLines(await readFile(path, 'utf8'));
  const orig: string[] = [];
  const changed: string[] = [];
  const out = lines.map((line) => {
    // Python's re.match anchors at the start; `$` also matches before a final newline
    const body = line.endsWith('\n') ? line.slice(0, -1) : line;
    re.lastIndex = 0;
    if (!re.test(body)) return line;
    const next = cmnt
      ? `${char}${line}`
      : line.replace(new RegExp(`^[${char.replace(/[\]\\^-]/g, '\\$&')}]+`), '');
    orig.push(line);
    changed.push(next);
    return next;
  });
  if (!orig.length) return false;
  await rewrite(path, out.join(''), backup, true);
  return unifiedDiff(orig, changed);
}

export interface BlockOptions {
  markerStart: string;
  markerEnd: string;
  content: string;
  appendIfNotFound?: boolean;
  prependIfNotFound?: boolean;
  insertBeforeMatch?: string | null;
  insertAfterMatch?: string | null;
  backup?: string | false;
  dryRun?: boolean;
  showChanges?: boolean;
  appendNewline?: boolean | null;
}

/** Salt's `file.blockreplace`: the diff (or true) when the block changed, else false. */
export async function blockReplace(path: string, o: BlockOptions): Promise<string | boolean> {
  if (!(await isFile(path))) throw new FileError(`File not found: ${path}`);
  const old = await readFile(path);
  const orig = readLines(old.toString('utf8'));
  const content = o.content;
  let appendNewline = o.appendNewline;
  if ((appendNewline === null || appendNewline === undefined) && !content.endsWith('\n'))
    appendNewline = true;
  const split = content.split('\r\n').flatMap((l) => l.split('\n'));
  const eolOf = (line: string | undefined) => (line?.endsWith('\r\n') ? '\r\n' : '\n');
  const linesep = eolOf(orig[0]);
  const addContent = (lines: string[], withStart: boolean, endLine: string = o.markerEnd) => {
    const end = endLine.replace(/[\r\n]+$/, '') + linesep;
    if (withStart) lines.push(o.markerStart + linesep);
    split.forEach((line, i) => {
      if (i !== split.length - 1) lines.push(line + linesep);
      else if (appendNewline) lines.push(line + linesep, end);
      else lines.push(line + end);
    });
    return lines;
  };
  let out: string[] = [];
  let inBlock = false;
  let found = false;
  for (const line of orig) {
    let keep = true;
    if (line.includes(o.markerStart)) inBlock = true;
    else if (inBlock) {
      keep = false;
      const at = line.indexOf(o.markerEnd);
      if (at !== -1) {
        inBlock = false;
        found = true;
        addContent(out, false, line.slice(at));
      }
    }
    if (keep) out.push(line);
  }
  if (inBlock) throw new FileError('Unterminated marked block. End of file reached before marker_end.');
  if (!found) {
    if (o.prependIfNotFound) out = [...addContent([], true), ...out];
    else if (o.appendIfNotFound) {
      const last = out.length - 1;
      if (last >= 0 && !out[last]!.endsWith(linesep)) out[last] += linesep;
      addContent(out, true);
    } else if (o.insertBeforeMatch || o.insertAfterMatch) {
      const re = pyRegex((o.insertBeforeMatch || o.insertAfterMatch)!);
      const idx = orig.findIndex((l) => re.test(l));
      if (idx < 0) throw new FileError('Cannot edit marked block. Markers were not found in file.');
      out.splice(o.insertAfterMatch ? idx + 1 : idx, 0, ...addContent([], true));
    } else throw new FileError('Cannot edit marked block. Markers were not found in file.');
  }
  const diff = unifiedDiff(orig, out);
  if (!diff) return false;
  if (!o.dryRun) await rewrite(path, out.join(''), o.backup ?? '.bak', true);
  return o.showChanges === false ? true : diff;
}
