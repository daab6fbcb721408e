/**
 * PyYAML reads a quoted scalar or a flow collection (`[...]`, `{...}`) without looking at the
 * indentation of its continuation lines; the `yaml` package wants them indented past the
 * enclosing block. So a Jinja `{{ x | yaml }}` that emits a multi-line `"..."` inside an
 * indented block loads in Salt and not here. When the parser reports one of those two errors,
 * this finds the scalar or collection the error belongs to and indents its continuation lines
 * (leading white space there is folded away by both loaders, so the value is unchanged), so the
 * caller can parse again. A document marker (`---`, `...`) at column 0 inside one is still an
 * error, as in PyYAML.
 */
import { CST, Lexer } from 'yaml';

/** Spaces inserted at the start of lines (0-based line → count), to map columns back. */
export type LineShifts = Map<number, number>;

const ZERO_WIDTH = new Set(['doc-mode', 'flow-error-end', 'scalar']);

interface Cut {
  start: number;
  /** Where the lexer ended it. */
  lexEnd: number;
}

/**
 * The last quoted scalar and the last outermost flow collection that start before `at`, as the
 * `yaml` lexer sees them (it ends either early at an under-indented line).
 */
function startsBefore(source: string, at: number): { quoted?: Cut; flow?: Cut } {
  const found: { quoted?: Cut; flow?: Cut } = {};
  let offset = 0;
  let depth = 0;
  for (const token of new Lexer().lex(source)) {
    if (offset > at) break;
    const type = CST.tokenType(token);
    if (type === 'double-quoted-scalar' || type === 'single-quoted-scalar')
      found.quoted = { start: offset, lexEnd: offset + token.length };
    if (type === 'flow-seq-start' || type === 'flow-map-start') {
      if (depth === 0) found.flow = { start: offset, lexEnd: at };
      depth++;
    } else if (type === 'flow-seq-end' || type === 'flow-map-end') depth = Math.max(0, depth - 1);
    else if (type === 'flow-error-end') depth = 0;
    if (!ZERO_WIDTH.has(type ?? '')) offset += token.length;
  }
  return found;
}

const atMarker = (s: string, i: number) =>
  (i === 0 || s[i - 1] === '\n') && /^(?:---|\.\.\.)(?:[ \t\r\n]|$)/.test(s.slice(i, i + 4));

/** The offset just past a quoted scalar starting at `i`, or null (unclosed, or a document marker inside). */
function quotedEnd(s: string, i: number): number | null {
  const q = s[i];
  for (let j = i + 1; j < s.length; j++) {
    if (atMarker(s, j)) return null;
    const c = s[j];
    if (q === '"' && c === '\\') j++;
    else if (c === q) {
      if (q === "'" && s[j + 1] === "'") j++;
      else return j + 1;
    }
  }
  return null;
}

/** The offset just past a flow collection starting at `i`, skipping quoted scalars and comments. */
function flowEnd(s: string, i: number): number | null {
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    if (atMarker(s, j)) return null;
    const c = s[j] as string;
    if (c === '"' || c === "'") {
      const end = quotedEnd(s, j);
      if (end === null) return null;
      j = end - 1;
    } else if (c === '#' && /\s/.test(s[j - 1] ?? ' ')) {
      const nl = s.indexOf('\n', j);
      if (nl === -1) return null;
      j = nl;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return null;
}

/**
 * The source with the continuation lines of the quoted scalar or flow collection that the `yaml`
 * lexer cut short before the error at `at` indented one column past its first character, or null
 * when the error has another cause.
 */
export function reindentAt(source: string, at: number, shifts: LineShifts): string | null {
  const { quoted, flow } = startsBefore(source, at);
  const qEnd = quoted && quotedEnd(source, quoted.start);
  if (quoted && qEnd && qEnd > quoted.lexEnd) return indentLines(source, quoted.start, qEnd, shifts);
  const fEnd = flow && flowEnd(source, flow.start);
  if (flow && fEnd && fEnd > flow.lexEnd) return indentLines(source, flow.start, fEnd, shifts);
  return null;
}

function indentLines(source: string, start: number, end: number, shifts: LineShifts): string | null {
  const need = start - (source.lastIndexOf('\n', start - 1) + 1) + 1;
  let line = source.slice(0, start).split('\n').length - 1;
  let out = source.slice(0, start);
  let changed = false;
  let i = start;
  for (let nl = source.indexOf('\n', i); nl !== -1 && nl < end; nl = source.indexOf('\n', i)) {
    out += source.slice(i, nl + 1);
    i = nl + 1;
    line++;
    const indent = /^ */.exec(source.slice(i, end))?.[0].length ?? 0;
    const rest = source[i + indent];
    if (indent < need && rest !== '\n' && rest !== '\r' && i + indent < end) {
      out += ' '.repeat(need - indent);
      shifts.set(line, (shifts.get(line) ?? 0) + need - indent);
      changed = true;
    }
  }
  return changed ? out + source.slice(i) : null;
}
