/**
 * A parsed document written back as Salt's `xml` module writes it (Python's
 * `ElementTree.write(file)`): US-ASCII with other characters as decimal character references,
 * no XML declaration, `<tag />` for an empty element, every namespace declared on the root as
 * `ns0`, `ns1`, ... (or its well-known prefix), nothing after the root's end tag.
 */
import { XML_NS, type XmlElement } from './_xml-tree.js';

const WELL_KNOWN: Readonly<Record<string, string>> = {
  [XML_NS]: 'xml',
  'http://www.w3.org/1999/xhtml': 'html',
  'http://www.w3.org/1999/02/22-rdf-syntax-ns#': 'rdf',
  'http://schemas.xmlsoap.org/wsdl/': 'wsdl',
  'http://www.w3.org/2001/XMLSchema': 'xs',
  'http://www.w3.org/2001/XMLSchema-instance': 'xsi',
  'http://purl.org/dc/elements/1.1/': 'dc',
};

const escapeText = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

const escapeAttr = (s: string) =>
  escapeText(s)
    .replaceAll('"', '&quot;')
    .replaceAll('\r', '&#13;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\t', '&#09;');

/** Names as written, and the namespaces to declare (uri -> prefix), in ElementTree's order. */
function qualifiedNames(root: XmlElement): { qnames: Map<string, string>; namespaces: Map<string, string> } {
  const qnames = new Map<string, string>();
  const namespaces = new Map<string, string>();
  const add = (name: string) => {
    if (qnames.has(name)) return;
    if (!name.startsWith('{')) {
      qnames.set(name, name);
      return;
    }
    const close = name.lastIndexOf('}');
    const uri = name.slice(1, close);
    let prefix = namespaces.get(uri) ?? WELL_KNOWN[uri];
    if (prefix === undefined) prefix = `ns${namespaces.size}`;
    if (prefix !== 'xml') namespaces.set(uri, prefix);
    qnames.set(name, `${prefix}:${name.slice(close + 1)}`);
  };
  const walk = (el: XmlElement) => {
    add(el.tag);
    for (const k of el.attrib.keys()) add(k);
    for (const c of el.children) walk(c);
  };
  walk(root);
  return { qnames, namespaces };
}

/** Non-ASCII characters as `&#N;`, as Python's `xmlcharrefreplace` writes them. */
const ascii = (s: string) => s.replace(/[\u0080-\u{10ffff}]/gu, (c) => `&#${c.codePointAt(0)};`);

/** The bytes Python's `ElementTree(root).write(path)` puts in the file. */
export function writeXml(root: XmlElement): Buffer {
  const { qnames, namespaces } = qualifiedNames(root);
  const out: string[] = [];
  const emit = (el: XmlElement, top: boolean) => {
    const tag = qnames.get(el.tag) ?? el.tag;
    out.push(`<${tag}`);
    if (top) {
      const decls = [...namespaces].sort((a, b) => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
      for (const [uri, prefix] of decls) out.push(` xmlns${prefix ? `:${prefix}` : ''}="${escapeAttr(uri)}"`);
    }
    for (const [k, v] of el.attrib) out.push(` ${qnames.get(k) ?? k}="${escapeAttr(v)}"`);
    if (el.text || el.children.length > 0) {
      out.push(`>${escapeText(el.text ?? '')}`);
      for (const c of el.children) emit(c, false);
      out.push(`</${tag}>`);
    } else out.push(' />');
    if (el.tail) out.push(escapeText(el.tail));
  };
  emit(root, true);
  return Buffer.from(ascii(out.join('')), 'latin1');
}
