import { describe, expect, it } from 'vitest';
import { RETURNS } from './fixtures.js';
import { renderTxt, txtOutputter } from './txt.js';

// Expected strings are what Salt 3006.18's salt/output/txt.py prints for the same data.
describe('txt outputter', () => {
  it('prints key: value, one line per line of text', () => {
    expect(renderTxt(RETURNS.bool)).toBe('m1: True');
    expect(renderTxt(RETURNS.none)).toBe('m1: None');
    expect(renderTxt(RETURNS.multiline)).toBe('m1: hi\nm1: there');
    expect(renderTxt(RETURNS.long)).toBe(`m1: ${RETURNS.long.m1}`);
  });

  it('prints other values with Python str() on one line', () => {
    expect(renderTxt(RETURNS.nested)).toBe(
      "m1: {'foo': {'bar': 'baz', 'dictionary': {'abc': 123, 'def': 456}, 'list': ['Hello', 'World']}}",
    );
    expect(renderTxt(RETURNS.runAll)).toBe(
      "m1: {'pid': 4242, 'retcode': 0, 'stderr': '', 'stdout': 'total 0\\n-rw-r--r-- 1 root root 0 a.txt'}",
    );
    expect(renderTxt(RETURNS.numbers)).toBe(
      "m1: {'int': 42, 'float': 1.5, 'whole': 1.0, 'big': 1e+16, 'small': 1e-05, 'neg': -7}",
    );
    expect(renderTxt(RETURNS.unicode)).toBe("m1: {'name': 'Zoë', 'city': '東京', 'emoji': '😀'}");
    expect(renderTxt(RETURNS.tricky)).toBe(
      "m1: ['yes', '1.0', '', 'a: b', \"it's\", '- x', '~', 'trail ', '2024-01-01', 'tab\\there']",
    );
  });

  it('prints nothing for empty text', () => {
    expect(renderTxt(RETURNS.empty)).toBe('m1: {}\nm2: []');
  });

  it('prints text as is and other data through pprint', () => {
    expect(renderTxt('plain text\n')).toBe('plain text');
    expect(renderTxt(false)).toBe('False');
    expect(renderTxt(Array.from({ length: 30 }, (_, i) => i))).toBe(
      `[${Array.from({ length: 30 }, (_, i) => i).join(',\n ')}]`,
    );
  });

  it('prints bytes lines as their repr', () => {
    expect(renderTxt({ m1: new TextEncoder().encode('a\r\nb') })).toBe("m1: b'a'\nm1: b'b'");
  });

  it('is registered as txt', () => {
    expect(txtOutputter.render(RETURNS.bool, { color: true })).toBe('m1: True');
  });
});
