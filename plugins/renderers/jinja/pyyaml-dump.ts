/**
 * PyYAML's `safe_dump` of template data, character for character (Salt's `yaml` filter,
 * `dict_to_sls_yaml_params`, `yaml_dquote`/`yaml_squote`): PyYAML's scalar analysis picks plain,
 * single- or double-quoted style (a string the YAML 1.1 resolver would read as another type is
 * quoted), mapping keys are sorted, block sequences are not indented under their key, flow
 * collections break before an item past column 80, and long scalars fold at a space there.
 * This follows the behaviour of PyYAML's `Emitter` for the values templates hold; it emits no
 * tags, anchors or block scalars (safe_dump never chooses them).
 */
import { pyFloatRepr, SaltFloat } from '../../../kernel/util.js';
import { isOrdered } from '../../../modules/_ordered.js';
import { PYYAML_NON_STR } from '../yaml/resolve.js';
import { TemplateError } from './values.js';

const BREAKS = '\n\x85\u2028\u2029';
const BLANK = ` \t\r${BREAKS}`;
const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '0',
  '\x07': 'a',
  '\x08': 'b',
  '\t': 't',
  '\n': 'n',
  '\x0B': 'v',
  '\x0C': 'f',
  '\r': 'r',
  '\x1B': 'e',
  '"': '"',
  '\\': '\\',
  '\x85': 'N',
  '\xA0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

interface Analysis {
  empty: boolean;
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
}

function isUnicodePrintable(ch: string): boolean {
  return (
    ch === '\x85' ||
    (ch >= '\xA0' && ch <= '\uD7FF') ||
    (ch >= '\uE000' && ch <= '\uFFFD' && ch !== '\uFEFF') ||
    (ch.codePointAt(0) ?? 0) >= 0x10000
  );
}

/** PyYAML's `Emitter.analyze_scalar` (with `allow_unicode`, as Salt's dumper sets it). */
function analyze(text: string, allowUnicode: boolean): Analysis {
  if (text === '')
    return { empty: true, multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true };
  const chars = Array.from(text);
  let blockInd = text.startsWith('---') || text.startsWith('...');
  let flowInd = blockInd;
  let lineBreaks = false;
  let special = false;
  let [leadSpace, leadBreak, trailSpace, trailBreak, breakSpace, spaceBreak] = [
    false,
    false,
    false,
    false,
    false,
    false,
  ];
  let prevSpace = false;
  let prevBreak = false;
  let precededByWs = true;
  chars.forEach((ch, i) => {
    const followedByWs = i + 1 >= chars.length || BLANK.includes(chars[i + 1] ?? '');
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) flowInd = blockInd = true;
      if (ch === '?' || ch === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (ch === '-' && followedByWs) flowInd = blockInd = true;
    } else {
      if (',?[]{}'.includes(ch)) flowInd = true;
      if (ch === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (ch === '#' && precededByWs) flowInd = blockInd = true;
    }
    if (BREAKS.includes(ch)) lineBreaks = true;
    if (!(ch === '\n' || (ch >= ' ' && ch <= '~')) && !(allowUnicode && isUnicodePrintable(ch)))
      special = true;
    if (ch === ' ') {
      if (i === 0) leadSpace = true;
      if (i === chars.length - 1) trailSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (BREAKS.includes(ch)) {
      if (i === 0) leadBreak = true;
      if (i === chars.length - 1) trailBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = prevBreak = false;
    }
    precededByWs = `\0${BLANK}`.includes(ch);
  });
  let flowPlain = true;
  let blockPlain = true;
  let singleQuoted = true;
  if (leadSpace || leadBreak || trailSpace || trailBreak) flowPlain = blockPlain = false;
  if (breakSpace) flowPlain = blockPlain = singleQuoted = false;
  if (spaceBreak || special) flowPlain = blockPlain = singleQuoted = false;
  if (lineBreaks) flowPlain = blockPlain = false;
  if (flowInd) flowPlain = false;
  if (blockInd) blockPlain = false;
  return { empty: false, multiline: lineBreaks, flowPlain, blockPlain, singleQuoted };
}

/** The text of a non-string scalar as PyYAML's SafeRepresenter writes it, or undefined. */
function scalarText(v: unknown): string | undefined {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  const float = (n: number) => {
    if (Number.isNaN(n)) return '.nan';
    if (n === Number.POSITIVE_INFINITY) return '.inf';
    if (n === Number.NEGATIVE_INFINITY) return '-.inf';
    const r = pyFloatRepr(n).toLowerCase();
    return !r.includes('.') && r.includes('e') ? r.replace('e', '.0e') : r;
  };
  if (v instanceof SaltFloat) return float(v.value);
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : float(v);
  if (typeof v === 'bigint') return String(v);
  return undefined;
}

function isMapping(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof SaltFloat);
}

const isScalar = (v: unknown) => typeof v === 'string' || scalarText(v) !== undefined;

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** One PyYAML emitter's output state. */
class Emitter {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;
  openEnded = false;
  indent: number | null = null;
  readonly indents: (number | null)[] = [];
  flowLevel = 0;

  constructor(
    readonly width: number,
    readonly allowUnicode: boolean,
    /** libyaml's emitter (Salt's serializers use `CSafeDumper`): no `...` after a lone plain scalar, empty simple keys. */
    readonly libyaml = false,
  ) {}

  write(data: string): void {
    this.out += data;
    this.column += data.length;
  }

  lineBreak(br = '\n'): void {
    this.out += br;
    this.whitespace = true;
    this.indention = true;
    this.column = 0;
  }

  writeIndent(): void {
    const indent = this.indent ?? 0;
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace))
      this.lineBreak();
    if (this.column < indent) {
      this.whitespace = true;
      this.write(' '.repeat(indent - this.column));
    }
  }

  indicator(text: string, needWs: boolean, ws = false, indention = false): void {
    this.write(this.whitespace || !needWs ? text : ` ${text}`);
    this.whitespace = ws;
    this.indention = this.indention && indention;
    this.openEnded = false;
  }

  increaseIndent(flow: boolean, indentless = false): void {
    this.indents.push(this.indent);
    if (this.indent === null) this.indent = flow ? 2 : 0;
    else if (!indentless) this.indent += 2;
  }

  popIndent(): void {
    this.indent = this.indents.pop() ?? null;
  }

  plain(text: string, split: boolean, root: boolean): void {
    if (root) this.openEnded = true;
    if (!text) return;
    if (!this.whitespace) this.write(' ');
    this.whitespace = this.indention = false;
    this.runs(text, split, false);
  }

  singleQuoted(text: string, split: boolean): void {
    this.indicator("'", true);
    this.runs(text, split, true);
    this.indicator("'", false);
  }

  /** The body of a plain or single-quoted scalar: spaces fold past the width, breaks double. */
  private runs(text: string, split: boolean, quoted: boolean): void {
    const chars = Array.from(text);
    let spaces = false;
    let breaks = false;
    let start = 0;
    for (let end = 0; end <= chars.length; end++) {
      const ch = end < chars.length ? chars[end] : undefined;
      if (spaces) {
        if (ch !== ' ') {
          const fold = start + 1 === end && this.column > this.width && split;
          if (fold && (!quoted || (start !== 0 && end !== chars.length))) {
            this.writeIndent();
            if (!quoted) this.whitespace = this.indention = false;
          } else this.write(chars.slice(start, end).join(''));
          start = end;
        }
      } else if (breaks) {
        if (ch === undefined || !BREAKS.includes(ch)) {
          if (chars[start] === '\n') this.lineBreak();
          for (const br of chars.slice(start, end)) this.lineBreak(br);
          this.writeIndent();
          start = end;
        }
      } else if (ch === undefined || ` ${BREAKS}`.includes(ch) || (quoted && ch === "'")) {
        if (start < end) this.write(chars.slice(start, end).join(''));
        start = end;
      }
      if (quoted && ch === "'") {
        this.write("''");
        start = end + 1;
      }
      if (ch !== undefined) {
        spaces = ch === ' ';
        breaks = BREAKS.includes(ch);
      }
    }
  }

  doubleQuoted(text: string, split: boolean): void {
    this.indicator('"', true);
    const chars = Array.from(text);
    let start = 0;
    for (let end = 0; end <= chars.length; end++) {
      const ch = end < chars.length ? chars[end] : undefined;
      const printable =
        ch !== undefined &&
        ((ch >= ' ' && ch <= '~') ||
          (this.allowUnicode && ((ch >= '\xA0' && ch <= '\uD7FF') || (ch >= '\uE000' && ch <= '\uFFFD'))));
      if (ch === undefined || '"\\\x85\u2028\u2029\uFEFF'.includes(ch) || !printable) {
        if (start < end) this.write(chars.slice(start, end).join(''));
        start = end;
        if (ch !== undefined) {
          const cp = ch.codePointAt(0) ?? 0;
          const hex = (n: number) => cp.toString(16).toUpperCase().padStart(n, '0');
          this.write(
            ESCAPES[ch] !== undefined
              ? `\\${ESCAPES[ch]}`
              : cp <= 0xff
                ? `\\x${hex(2)}`
                : cp <= 0xffff
                  ? `\\u${hex(4)}`
                  : `\\U${hex(8)}`,
          );
          start = end + 1;
        }
      }
      if (
        end > 0 &&
        end < chars.length - 1 &&
        (ch === ' ' || start >= end) &&
        this.column + (end - start) > this.width &&
        split
      ) {
        this.write(`${chars.slice(start, end).join('')}\\`);
        if (start < end) start = end;
        this.writeIndent();
        this.whitespace = this.indention = false;
        if (chars[start] === ' ') this.write('\\');
      }
    }
    this.indicator('"', false);
  }

  scalar(v: unknown, simpleKey: boolean, root: boolean): void {
    const text = scalarText(v);
    if (text !== undefined) {
      this.plain(text, !simpleKey, root);
      return;
    }
    const s = String(v);
    const a = analyze(s, this.allowUnicode);
    const implicit = !PYYAML_NON_STR.test(s);
    const plain =
      implicit &&
      !(simpleKey && (a.empty || a.multiline)) &&
      ((this.flowLevel > 0 && a.flowPlain) || (this.flowLevel === 0 && a.blockPlain));
    if (plain) this.plain(s, !simpleKey, root);
    else if (a.singleQuoted && !(simpleKey && a.multiline)) this.singleQuoted(s, !simpleKey);
    else this.doubleQuoted(s, !simpleKey);
  }

  node(
    v: unknown,
    flowStyle: boolean | null,
    ctx: { root?: boolean; mapping?: boolean; simpleKey?: boolean },
  ): void {
    if (typeof v === 'string' || scalarText(v) !== undefined) {
      this.increaseIndent(true);
      this.scalar(v, ctx.simpleKey === true, ctx.root === true);
      this.popIndent();
      return;
    }
    if (Array.isArray(v)) {
      const flow = flowStyle ?? v.every(isScalar);
      if (this.flowLevel > 0 || flow || v.length === 0) this.flowSequence(v, flowStyle);
      else this.blockSequence(v, ctx.mapping === true, flowStyle);
      return;
    }
    if (isMapping(v) && Object.getPrototypeOf(v) === Object.prototype) {
      const keys = isOrdered(v) ? Object.keys(v) : Object.keys(v).sort(byCodePoint);
      const flow = flowStyle ?? keys.every((k) => isScalar(v[k]));
      if (this.flowLevel > 0 || flow || keys.length === 0) this.flowMapping(v, keys, flowStyle);
      else this.blockMapping(v, keys, flowStyle);
      return;
    }
    throw new TemplateError(`cannot represent an object: ${String(v)}`);
  }

  /** PyYAML's `check_simple_key`: the key and its tag (`!!str`, 5 characters) under 128. */
  private simpleKey(key: string): boolean {
    const a = analyze(key, this.allowUnicode);
    return Array.from(key).length + 5 < 128 && (this.libyaml || !a.empty) && !a.multiline;
  }

  flowSequence(v: readonly unknown[], flowStyle: boolean | null): void {
    this.indicator('[', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    v.forEach((item, i) => {
      if (i > 0) this.indicator(',', false);
      if (this.column > this.width) this.writeIndent();
      this.node(item, flowStyle, {});
    });
    this.popIndent();
    this.flowLevel--;
    this.indicator(']', false);
  }

  flowMapping(
    v: Readonly<Record<string, unknown>>,
    keys: readonly string[],
    flowStyle: boolean | null,
  ): void {
    this.indicator('{', true, true);
    this.flowLevel++;
    this.increaseIndent(true);
    keys.forEach((key, i) => {
      if (i > 0) this.indicator(',', false);
      if (this.column > this.width) this.writeIndent();
      if (this.simpleKey(key)) {
        this.node(key, flowStyle, { simpleKey: true });
        this.indicator(':', false);
      } else {
        this.indicator('?', true);
        this.node(key, flowStyle, {});
        if (this.column > this.width) this.writeIndent();
        this.indicator(':', true);
      }
      this.node(v[key], flowStyle, { mapping: true });
    });
    this.popIndent();
    this.flowLevel--;
    this.indicator('}', false);
  }

  blockSequence(v: readonly unknown[], inMapping: boolean, flowStyle: boolean | null): void {
    this.increaseIndent(false, inMapping && !this.indention);
    for (const item of v) {
      this.writeIndent();
      this.indicator('-', true, false, true);
      this.node(item, flowStyle, {});
    }
    this.popIndent();
  }

  blockMapping(
    v: Readonly<Record<string, unknown>>,
    keys: readonly string[],
    flowStyle: boolean | null,
  ): void {
    this.increaseIndent(false);
    for (const key of keys) {
      this.writeIndent();
      if (this.simpleKey(key)) {
        this.node(key, flowStyle, { simpleKey: true });
        this.indicator(':', false);
      } else {
        this.indicator('?', true, false, true);
        this.node(key, flowStyle, {});
        this.writeIndent();
        this.indicator(':', true, false, true);
      }
      this.node(v[key], flowStyle, { mapping: true });
    }
    this.popIndent();
  }
}

/**
 * `yaml.safe_dump(value, default_flow_style=flow, allow_unicode=True)` as Salt's `yaml` filter
 * returns it: stripped, without the `...` that ends a document holding a plain scalar alone.
 * `flow: null` is PyYAML's default style: a collection is flow when its items are all scalars.
 */
export function pyYamlDump(value: unknown, flow: boolean | null, allowUnicode = true, width = 80): string {
  return pyYamlDocument(value, flow, allowUnicode, false, width)
    .trim()
    .replace(/\n\.\.\.$/, '');
}

/** The whole document `yaml.dump(value, Dumper=SafeDumper, ...)` writes, `...` end marker included. */
export function pyYamlDocument(
  value: unknown,
  flow: boolean | null,
  allowUnicode: boolean,
  libyaml = false,
  width = 80,
): string {
  const e = new Emitter(width, allowUnicode, libyaml);
  e.node(value, flow, { root: true });
  e.writeIndent();
  if (e.openEnded && !libyaml) {
    e.write('...');
    e.writeIndent();
  }
  return e.out;
}

/** PyYAML's `write_double_quoted` with no width limit (Salt's `yaml_dquote`). */
export function pyYamlDoubleQuoted(text: string): string {
  const e = new Emitter(Number.POSITIVE_INFINITY, false);
  e.doubleQuoted(text, false);
  return e.out;
}

/** PyYAML's `write_single_quoted` with no width limit (Salt's `yaml_squote`). */
export function pyYamlSingleQuoted(text: string): string {
  const e = new Emitter(Number.POSITIVE_INFINITY, false);
  e.singleQuoted(text, false);
  return e.out;
}
