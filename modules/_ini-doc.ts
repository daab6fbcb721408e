/**
 * An ini file as Salt's `ini` module sees it (salt/modules/ini_manage.py): ordered sections of
 * ordered options, with comment lines (`#commentN`), lines it cannot read (`#unknownN`, blank
 * lines among them) and indented continuation lines kept so the file can be written back.
 * The rules that shape returns and files are Salt's:
 * - text before the first `[section]` holds top-level options;
 * - an option line is `<name> <sep> <value>`; the first separator splits it;
 * - a line indented deeper than the option above continues that option's value;
 * - adding an option that a comment line holds (`#port = 80`) puts it where the comment was;
 * - written back, every separator becomes ` <sep> ` (or bare with `no_spaces`), sub-sections
 *   follow the options, and each section header after the first has a blank line before it.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import { pySplitlines, pyStr } from '../kernel/util.js';

const SECTION_HEAD = /^\s*\[([^\n]+?)\]\s*$/m;
const COMMENT_LINE = /^\s*(#|;)\s*([^\n]*)/;
const INDENTED_LINE = /^(\s+)([^\n]*)/;

/** What `update` reports for one key: old and new value, or the changes inside a sub-section. */
export type IniChange = { before: IniPlain | null; after: IniPlain } | { [key: string]: IniChange };
/** A section as plain data (every key, comments too). */
export type IniPlain = string | { [key: string]: IniPlain };
export type IniValue = string | IniSection;

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

export class IniSection {
  readonly entries = new Map<string, IniValue>();
  sep: string;
  readonly #optionLine: RegExp;

  constructor(
    readonly name: string,
    separator = '=',
    readonly noSpaces = false,
  ) {
    this.sep = separator;
    this.#optionLine = new RegExp(`^(\\s*)([^\\n]+?)\\s*(${escapeRe(separator)})\\s*([^\\n]*)`);
  }

  /** Reads a section's lines (the text between two headers). */
  parse(text: string): void {
    const body = text.replace(/^\n+|\n+$/g, '');
    if (!body) return;
    let comments = 1;
    let unknowns = 1;
    let indent = '';
    for (const line of body.split('\n')) {
      if (COMMENT_LINE.test(line)) {
        this.update([[`#comment${comments++}`, line]]);
        continue;
      }
      const ind = INDENTED_LINE.exec(line);
      if (ind && (ind[1] ?? '').replaceAll('\t', '    ') > indent) {
        const last = [...this.entries.keys()].pop();
        if (last !== undefined) this.update([[last, `${pyStr(this.entries.get(last))}\n${line}`]]);
        continue;
      }
      const opt = this.#optionLine.exec(line);
      if (opt) {
        indent = (opt[1] ?? '').replaceAll('\t', '    ');
        this.sep = opt[3] ?? this.sep;
        this.update([[opt[2] ?? '', opt[4] ?? '']]);
        continue;
      }
      this.update([[`#unknown${unknowns++}`, line]]);
    }
  }

  /** Merges `values` in (a record is a sub-section); answers what changed. */
  update(values: Iterable<[string, unknown]>): Record<string, IniChange> {
    const changes: Record<string, IniChange> = {};
    for (const [key, raw] of values) {
      let value: IniValue;
      if (raw instanceof IniSection || isRecord(raw)) {
        const sub = new IniSection(key, this.sep, this.noSpaces);
        sub.update(raw instanceof IniSection ? raw.entries : Object.entries(raw));
        value = sub;
      } else value = pyStr(raw);
      const current = this.entries.get(key);
      if (current === undefined) {
        changes[key] = { before: null, after: plain(value) };
        if (typeof value === 'string') this.#takeCommentedPlace(key);
        this.entries.set(key, value);
      } else if (current instanceof IniSection) {
        if (!(value instanceof IniSection)) {
          throw new SALT_ERR_EXEC_COMMAND(`'${key}' is a section: its value must be a mapping of options`);
        }
        const sub = current.update(value.entries);
        if (Object.keys(sub).length) changes[key] = sub;
      } else if (value instanceof IniSection || current !== value) {
        changes[key] = { before: current, after: plain(value) };
        this.entries.set(key, value);
      }
    }
    return changes;
  }

  /** A new option `key` goes where the first comment line that holds it is; that line goes. */
  #takeCommentedPlace(key: string): void {
    let found: string | undefined;
    const after: [string, IniValue][] = [];
    for (const [k, v] of this.entries) {
      if (found !== undefined) after.push([k, v]);
      else if (k.includes('#comment') && typeof v === 'string') {
        if (this.#optionLine.exec(v.replace(/^#+/, ''))?.[2] === key) found = k;
      }
    }
    if (found === undefined) return;
    for (const [k] of after) this.entries.delete(k);
    this.entries.delete(found);
    this.entries.set(key, '');
    for (const [k, v] of after) this.entries.set(k, v);
  }

  /** The section's text: its header, its lines, then its sub-sections. */
  render(): string[] {
    const out = [`\n[${this.name}]\n`];
    const subs: IniSection[] = [];
    for (const [k, v] of this.entries) {
      if (COMMENT_LINE.test(k)) out.push(`${pyStr(v instanceof IniSection ? v.toPlain() : v)}\n`);
      else if (v instanceof IniSection) subs.push(v);
      else {
        if ([...this.sep].every((c) => c === ' ')) this.sep = ' ';
        if (this.sep !== ' ') this.sep = this.noSpaces ? this.sep.trim() : ` ${this.sep.trim()} `;
        out.push(`${k}${this.sep}${v}\n`);
      }
    }
    for (const s of subs) out.push(...s.render());
    return out;
  }

  /** Every key, comments and unreadable lines too. */
  toPlain(): { [key: string]: IniPlain } {
    return Object.fromEntries([...this.entries].map(([k, v]) => [k, plain(v)]));
  }

  /** The keys that are options or sections (not comment or unreadable lines), recursively. */
  toData(): { [key: string]: IniPlain } {
    const out: { [key: string]: IniPlain } = {};
    for (const [k, v] of this.entries) {
      if (!k.startsWith('#')) out[k] = v instanceof IniSection ? v.toData() : v;
    }
    return out;
  }
}

const plain = (v: IniValue): IniPlain => (v instanceof IniSection ? v.toPlain() : v);

/** Reads a whole file's text into a top-level section named for the file. */
export function parseIni(file: string, text: string, separator: string, noSpaces: boolean): IniSection {
  const top = new IniSection(file, separator, noSpaces);
  const parts = pySplitlines(text).join('\n').split(SECTION_HEAD);
  top.parse(parts[0] ?? '');
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const sect = new IniSection(parts[i] ?? '', top.sep);
    sect.parse(parts[i + 1] ?? '');
    top.update([[sect.name, sect]]);
  }
  return top;
}

/** The file text Salt writes for a top-level section: no header of its own, no leading blank line. */
export function renderIni(top: IniSection): string {
  const lines = top.render().slice(1);
  if (lines.length) lines[0] = (lines[0] ?? '').replace(/^\n+/, '');
  return lines.join('');
}
