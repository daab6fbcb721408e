/**
 * The element tree Salt's `xml` module works on, read as Python's ElementTree reads a file:
 * names in `{uri}local` form, namespace declarations taken out of the attributes, comments,
 * processing instructions and the DOCTYPE dropped (their tails join the text around them),
 * entities and CDATA resolved into text, line ends and attribute whitespace normalized.
 */
import { SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';

export interface XmlElement {
  tag: string;
  /** Attributes in document order (Python dicts keep insertion order). */
  attrib: Map<string, string>;
  /** Text before the first child; null when there is none (ElementTree's None). */
  text: string | null;
  /** Text after this element's end tag, up to the next markup. */
  tail: string | null;
  children: XmlElement[];
}

export const XML_NS = 'http://www.w3.org/XML/1998/namespace';

const PREDEFINED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const NAME = /[^\s/>=<"'!?&;]+/y;

/** Python's codec names for the encodings an XML declaration may give that Node can decode. */
const CODECS: Readonly<Record<string, BufferEncoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'us-ascii': 'latin1',
  ascii: 'latin1',
  'iso-8859-1': 'latin1',
  'latin-1': 'latin1',
  latin1: 'latin1',
};

function decode(buf: Buffer): string {
  if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) return buf.subarray(3).toString('utf8');
  if (buf[0] === 0xff && buf[1] === 0xfe) return buf.subarray(2).toString('utf16le');
  const head = buf.subarray(0, 200).toString('latin1');
  const enc = /^<\?xml[^>]*?encoding\s*=\s*["']([^"']+)["']/.exec(head)?.[1]?.toLowerCase();
  if (enc === undefined) return buf.toString('utf8');
  const codec = CODECS[enc];
  if (codec === undefined) throw new SALT_ERR_EXEC_COMMAND(`unknown encoding: ${enc}`);
  return buf.toString(codec);
}

class Reader {
  pos = 0;
  constructor(readonly src: string) {}

  fail(what: string, at = this.pos): never {
    const before = this.src.slice(0, at);
    const line = before.split('\n').length;
    const column = at - (before.lastIndexOf('\n') + 1);
    throw new SALT_ERR_EXEC_COMMAND(`${what}: line ${line}, column ${column}`);
  }

  startsWith(s: string): boolean {
    return this.src.startsWith(s, this.pos);
  }

  skipSpace(): void {
    while (this.pos < this.src.length && /\s/.test(this.src[this.pos] ?? '')) this.pos++;
  }

  name(): string {
    NAME.lastIndex = this.pos;
    const m = NAME.exec(this.src);
    if (!m) this.fail('not well-formed (invalid token)');
    this.pos += m[0].length;
    return m[0];
  }

  /** Skips up to and past `end`; a missing end is an unclosed document. */
  skipPast(end: string): void {
    const at = this.src.indexOf(end, this.pos);
    if (at < 0) this.fail('unclosed token', this.src.length);
    this.pos = at + end.length;
  }

  /** The DOCTYPE with its internal subset (quoted strings may hold `]` or `>`). */
  skipDoctype(): void {
    let depth = 0;
    while (this.pos < this.src.length) {
      if (this.startsWith('<!--')) {
        this.skipPast('-->');
        continue;
      }
      const c = this.src[this.pos++];
      if (c === '"' || c === "'") this.skipPast(c);
      else if (c === '[') depth++;
      else if (c === ']') depth--;
      else if (c === '>' && depth === 0) return;
    }
    this.fail('unclosed token', this.src.length);
  }

  /** Character data up to `stop`, entities and character references resolved. */
  chars(stop: string, attribute = false): string {
    let out = '';
    while (this.pos < this.src.length) {
      const c = this.src[this.pos] ?? '';
      if (stop.includes(c)) return out;
      if (c === '&') out += this.entity();
      else {
        // attribute-value normalization: each literal whitespace character becomes a space
        out += attribute && (c === '\t' || c === '\n') ? ' ' : c;
        this.pos++;
      }
    }
    return out;
  }

  entity(): string {
    const start = this.pos;
    const end = this.src.indexOf(';', start);
    const ref = end < 0 ? '' : this.src.slice(start + 1, end);
    this.pos = end + 1;
    if (ref.startsWith('#')) {
      const code = ref[1] === 'x' ? Number.parseInt(ref.slice(2), 16) : Number.parseInt(ref.slice(1), 10);
      const valid = /^#(x[0-9a-fA-F]+|[0-9]+)$/.test(ref) && code > 0 && code <= 0x10ffff;
      if (!valid) this.fail('reference to invalid character number', start);
      return String.fromCodePoint(code);
    }
    const known = PREDEFINED[ref];
    if (known === undefined)
      this.fail(
        end < 0 || !/^\S+$/.test(ref) ? 'not well-formed (invalid token)' : 'undefined entity',
        start,
      );
    return known;
  }
}

interface RawElement {
  name: string;
  attrs: [string, string][];
  at: number;
}

type Scope = ReadonlyMap<string, string>;

function resolve(r: Reader, raw: RawElement, parent: Scope): { el: XmlElement; scope: Scope } {
  const scope = new Map(parent);
  const plain: [string, string][] = [];
  for (const [k, v] of raw.attrs) {
    if (k === 'xmlns') scope.set('', v);
    else if (k.startsWith('xmlns:')) scope.set(k.slice(6), v);
    else plain.push([k, v]);
  }
  const qualify = (name: string, isAttr: boolean): string => {
    const colon = name.indexOf(':');
    if (colon < 0) {
      const def = isAttr ? undefined : scope.get('');
      return def ? `{${def}}${name}` : name;
    }
    const prefix = name.slice(0, colon);
    const uri = prefix === 'xml' ? XML_NS : scope.get(prefix);
    if (!uri) r.fail('unbound prefix', raw.at);
    return `{${uri}}${name.slice(colon + 1)}`;
  };
  const attrib = new Map<string, string>();
  for (const [k, v] of plain) {
    const q = qualify(k, true);
    if (attrib.has(q)) r.fail('duplicate attribute', raw.at);
    attrib.set(q, v);
  }
  return { el: { tag: qualify(raw.name, false), attrib, text: null, tail: null, children: [] }, scope };
}

function startTag(r: Reader): { raw: RawElement; empty: boolean } {
  const at = r.pos;
  r.pos++;
  const name = r.name();
  const attrs: [string, string][] = [];
  for (;;) {
    const hadSpace = /\s/.test(r.src[r.pos] ?? '');
    r.skipSpace();
    if (r.startsWith('/>')) {
      r.pos += 2;
      return { raw: { name, attrs, at }, empty: true };
    }
    if (r.startsWith('>')) {
      r.pos++;
      return { raw: { name, attrs, at }, empty: false };
    }
    if (!hadSpace || r.pos >= r.src.length) r.fail('not well-formed (invalid token)');
    const keyAt = r.pos;
    const key = r.name();
    r.skipSpace();
    if (!r.startsWith('=')) r.fail('not well-formed (invalid token)');
    r.pos++;
    r.skipSpace();
    const quote = r.src[r.pos];
    if (quote !== '"' && quote !== "'") r.fail('not well-formed (invalid token)');
    r.pos++;
    const value = r.chars(`${quote}<`, true);
    if (r.src[r.pos] !== quote) r.fail('not well-formed (invalid token)');
    r.pos++;
    if (attrs.some(([k]) => k === key)) r.fail('duplicate attribute', keyAt);
    attrs.push([key, value]);
  }
}

/** Appends text where ElementTree would: the open element's text, or its last child's tail. */
function addText(open: XmlElement, s: string): void {
  if (s === '') return;
  const last = open.children[open.children.length - 1];
  if (last) last.tail = (last.tail ?? '') + s;
  else open.text = (open.text ?? '') + s;
}

/** Parses an XML document's bytes to its root element, or throws Python's ParseError text. */
export function parseXml(buf: Buffer): XmlElement {
  const text = decode(buf).replace(/\r\n?/g, '\n');
  const r: Reader = new Reader(text);
  const stack: { el: XmlElement; scope: Scope; name: string }[] = [];
  let root: XmlElement | null = null;
  while (r.pos < text.length) {
    const open = stack[stack.length - 1];
    if (r.startsWith('<!--')) r.skipPast('-->');
    else if (r.startsWith('<?')) r.skipPast('?>');
    else if (r.startsWith('<![CDATA[')) {
      if (!open) r.fail('not well-formed (invalid token)');
      const start = r.pos + 9;
      r.skipPast(']]>');
      addText(open.el, text.slice(start, r.pos - 3));
    } else if (r.startsWith('<!DOCTYPE')) {
      if (root || open) r.fail('not well-formed (invalid token)');
      r.skipDoctype();
    } else if (r.startsWith('</')) {
      r.pos += 2;
      const at = r.pos;
      const name = r.name();
      r.skipSpace();
      if (!open || open.name !== name || !r.startsWith('>')) r.fail('mismatched tag', at);
      r.pos++;
      stack.pop();
    } else if (r.startsWith('<')) {
      if (root && !open) r.fail('junk after document element');
      const { raw, empty } = startTag(r);
      const { el, scope } = resolve(r, raw, open?.scope ?? new Map());
      if (open) open.el.children.push(el);
      else root = el;
      if (!empty) stack.push({ el, scope, name: raw.name });
    } else if (open) {
      addText(open.el, r.chars('<'));
    } else {
      const at = r.pos;
      r.skipSpace();
      if (r.pos === at || (r.pos < text.length && r.src[r.pos] !== '<'))
        r.fail(root ? 'junk after document element' : 'syntax error', r.pos);
    }
  }
  if (!root || stack.length > 0) r.fail('no element found', text.length);
  return root;
}
