import { describe, expect, it } from 'vitest';
import { findElement } from './_xml-path.js';
import { parseXml } from './_xml-tree.js';
import { writeXml } from './_xml-write.js';

// Expectations: what Python 3.11's ElementTree (as Salt 3006.18's xml module uses it) gives.
const DOC = `<?xml version="1.0" encoding="UTF-8"?>
<!-- top comment -->
<!DOCTYPE catalog [ <!ELEMENT catalog ANY> <!-- ] > --> ]>
<catalog xmlns:x="urn:x">
  <book id="1" lang='en'>
    <title>Hamlet &amp; Co</title>
    <empty/>
    <!-- inner -->
    <note><![CDATA[a <b> c]]>\u00fc &#8364;&#x41;</note>
  </book>
  <book id="2"><title>Faust</title><x:tag attr="a&quot;b&#10;c\td">ns</x:tag></book>
</catalog>
`;
const root = parseXml(Buffer.from(DOC));
const text = (path: string) => findElement(root, path)?.text;

describe('parseXml', () => {
  it('resolves entities, CDATA and namespaces; drops comments, DOCTYPE and the declaration', () => {
    expect(root.tag).toBe('catalog');
    expect(text('book/title')).toBe('Hamlet & Co');
    expect(text('.//note')).toBe('a <b> c\u00fc \u20acA');
    expect(text('.//empty')).toBeNull();
    expect(findElement(root, './/empty')?.tail).toBe('\n    \n    ');
    expect(Object.fromEntries(findElement(root, './/{urn:x}tag')?.attrib ?? [])).toEqual({
      attr: 'a"b\nc d',
    });
  });

  it.each([
    ['<a><b></a>', 'mismatched tag: line 1, column 8'],
    ['<a><b>', 'no element found: line 1, column 6'],
    ['', 'no element found: line 1, column 0'],
    ['<a/><b/>', 'junk after document element: line 1, column 4'],
    ['<a>&nope;</a>', 'undefined entity: line 1, column 3'],
    ['<a x="1" x="2"/>', 'duplicate attribute: line 1, column 9'],
    ['<p:a/>', 'unbound prefix: line 1, column 0'],
  ])('refuses %j with ElementTree words', (src, msg) => {
    expect(() => parseXml(Buffer.from(src))).toThrow(msg);
  });

  it('reads a Latin-1 file with CRLF line ends', () => {
    const el = parseXml(
      Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\r\n<c>\r\n<v>caf\xe9</v></c>', 'latin1'),
    );
    expect(el.text).toBe('\n');
    expect(findElement(el, 'v')?.text).toBe('caf\u00e9');
  });
});

describe('findElement (ElementTree XPath subset)', () => {
  it.each([
    [".//book[@id='2']/title", 'Faust'],
    ['.//title', 'Hamlet & Co'],
    ['book[2]/title', 'Faust'],
    ['book[last()]/title', 'Faust'],
    ['book[last()-1]/title', 'Hamlet & Co'],
    ["book[title='Faust']/title", 'Faust'],
    [".//title[.='Faust']", 'Faust'],
    [".//book[@id!='1']/title", 'Faust'],
    ['.//book[empty]/title', 'Hamlet & Co'],
    ['.//note/../title', 'Hamlet & Co'],
    ['.//{*}tag', 'ns'],
    ['/book/title', 'Hamlet & Co'],
  ])('%s', (path, want) => {
    expect(text(path)).toBe(want);
  });

  it('returns null for no match and refuses what ElementTree refuses', () => {
    expect(findElement(root, './/nope')).toBeNull();
    expect(findElement(root, 'book[3]')).toBeNull();
    expect(() => findElement(root, './/x:tag')).toThrow("prefix 'x' not found in prefix map");
    expect(() => findElement(root, 'book[0]')).toThrow('XPath position >= 1 expected');
    expect(() => findElement(root, 'book[last()-0]')).toThrow('XPath offset from last() must be negative');
    expect(() => findElement(root, 'book[@id=1 or 2]')).toThrow('invalid predicate');
  });
});

describe('writeXml', () => {
  it("writes ElementTree's bytes: ASCII with references, <x />, ns0 prefixes, nothing around the root", () => {
    expect(writeXml(root).toString('latin1')).toBe(`<catalog xmlns:ns0="urn:x">
  <book id="1" lang="en">
    <title>Hamlet &amp; Co</title>
    <empty />
    \n    <note>a &lt;b&gt; c&#252; &#8364;A</note>
  </book>
  <book id="2"><title>Faust</title><ns0:tag attr="a&quot;b&#10;c d">ns</ns0:tag></book>
</catalog>`);
  });

  it('declares every namespace on the root, well-known ones by their prefix', () => {
    const ns = parseXml(
      Buffer.from(
        '<r xmlns="urn:d" xmlns:p="urn:p" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><p:i xsi:type="t" xml:lang="de" a="\t"/></r>',
      ),
    );
    const el = findElement(ns, '{urn:p}i');
    el?.attrib.set('b', 'x\ty\r');
    expect(writeXml(ns).toString()).toBe(
      '<ns0:r xmlns:ns0="urn:d" xmlns:ns1="urn:p" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><ns1:i xsi:type="t" xml:lang="de" a=" " b="x&#09;y&#13;" /></ns0:r>',
    );
  });
});
