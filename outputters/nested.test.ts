import { describe, expect, it } from 'vitest';
import { SaltDatetime } from '../kernel/serial/salt-types.js';
import { RETURNS } from './fixtures.js';
import { nestedOutputter, renderNested } from './nested.js';

// Expected strings are what Salt 3006.18's salt/output/nested.py prints for the same data.
const plain = (data: unknown, retcode = 0) => renderNested(data, { color: false, retcode });
const color = (data: unknown, retcode = 0) => renderNested(data, { color: true, retcode });

describe('nested outputter', () => {
  it('prints a bool under the minion id, spelled as Python prints it', () => {
    expect(plain(RETURNS.bool)).toBe('m1:\n    True');
    expect(color(RETURNS.bool)).toBe('\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;1;33mTrue\x1b[0;0m');
  });

  it('prints None and a bare top-level value', () => {
    expect(plain(RETURNS.none)).toBe('m1:\n    None');
    expect(color(RETURNS.none)).toBe('\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;1;33mNone\x1b[0;0m');
    expect(plain(false)).toBe('False');
    expect(color(false)).toBe('\x1b[0;1;33mFalse\x1b[0;0m');
  });

  it('prints text line by line in green', () => {
    expect(plain(RETURNS.multiline)).toBe('m1:\n    hi\n    there');
    expect(color(RETURNS.multiline)).toBe(
      '\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;32mhi\x1b[0;0m\n    \x1b[0;32mthere\x1b[0;0m',
    );
  });

  it('nests dicts with ---------- separators and lists as - items', () => {
    expect(plain(RETURNS.nested)).toBe(
      'm1:\n    ----------\n    foo:\n        ----------\n        bar:\n            baz\n' +
        '        dictionary:\n            ----------\n            abc:\n                123\n' +
        '            def:\n                456\n        list:\n            - Hello\n            - World',
    );
    expect(color(RETURNS.nested)).toBe(
      '\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;36m----------\x1b[0;0m\n    \x1b[0;36mfoo\x1b[0;0m:\n' +
        '        \x1b[0;36m----------\x1b[0;0m\n        \x1b[0;36mbar\x1b[0;0m:\n            \x1b[0;32mbaz\x1b[0;0m\n' +
        '        \x1b[0;36mdictionary\x1b[0;0m:\n            \x1b[0;36m----------\x1b[0;0m\n' +
        '            \x1b[0;36mabc\x1b[0;0m:\n                \x1b[0;1;33m123\x1b[0;0m\n' +
        '            \x1b[0;36mdef\x1b[0;0m:\n                \x1b[0;1;33m456\x1b[0;0m\n' +
        '        \x1b[0;36mlist\x1b[0;0m:\n            \x1b[0;32m- Hello\x1b[0;0m\n            \x1b[0;32m- World\x1b[0;0m',
    );
  });

  it('prints a cmd.run_all return, an empty stderr as a bare key', () => {
    expect(plain(RETURNS.runAll)).toBe(
      'm1:\n    ----------\n    pid:\n        4242\n    retcode:\n        0\n    stderr:\n    stdout:\n' +
        '        total 0\n        -rw-r--r-- 1 root root 0 a.txt',
    );
  });

  it('prints numbers with Python repr (1.0, 1e+16, 1e-05)', () => {
    expect(plain(RETURNS.numbers)).toBe(
      'm1:\n    ----------\n    big:\n        1e+16\n    float:\n        1.5\n    int:\n        42\n' +
        '    neg:\n        -7\n    small:\n        1e-05\n    whole:\n        1.0',
    );
  });

  it('prints empty dicts as a separator and empty lists and text as nothing', () => {
    expect(plain(RETURNS.empty)).toBe('m1:\n    ----------\nm2:\nm3:');
    expect(color(RETURNS.empty)).toBe(
      '\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;36m----------\x1b[0;0m\n\x1b[0;36mm2\x1b[0;0m:\n\x1b[0;36mm3\x1b[0;0m:',
    );
    expect(plain({})).toBe('');
  });

  it('keeps unicode as is and sorts keys', () => {
    expect(plain(RETURNS.unicode)).toBe(
      'm1:\n    ----------\n    city:\n        東京\n    emoji:\n        😀\n    name:\n        Zoë',
    );
  });

  it('marks nested lists and dicts in a list with |_', () => {
    expect(plain(RETURNS.listNested)).toBe(
      'm1:\n    - 1\n    |_\n      - 2\n      - 3\n    |_\n      ----------\n      a:\n          b\n    - multi\n      line',
    );
    expect(color(RETURNS.listNested)).toBe(
      '\x1b[0;36mm1\x1b[0;0m:\n    \x1b[0;1;33m- 1\x1b[0;0m\n    \x1b[0;32m|_\x1b[0;0m\n' +
        '      \x1b[0;1;33m- 2\x1b[0;0m\n      \x1b[0;1;33m- 3\x1b[0;0m\n    \x1b[0;32m|_\x1b[0;0m\n' +
        '      \x1b[0;36m----------\x1b[0;0m\n      \x1b[0;36ma\x1b[0;0m:\n          \x1b[0;32mb\x1b[0;0m\n' +
        '    \x1b[0;32m- multi\x1b[0;0m\n    \x1b[0;32m  line\x1b[0;0m',
    );
  });

  it('skips empty strings in lists and keeps trailing spaces inside lines', () => {
    expect(plain(RETURNS.tricky)).toBe(
      "m1:\n    - yes\n    - 1.0\n    - a: b\n    - it's\n    - - x\n    - ~\n    - trail \n    - 2024-01-01\n    - tab\there",
    );
  });

  it('turns keys, separators and list markers red for a failed return', () => {
    expect(color({ m1: { a: [[1]] } }, 1)).toBe(
      '\x1b[0;31mm1\x1b[0;0m:\n    \x1b[0;31m----------\x1b[0;0m\n    \x1b[0;31ma\x1b[0;0m:\n' +
        '        \x1b[0;31m|_\x1b[0;0m\n          \x1b[0;1;33m- 1\x1b[0;0m',
    );
  });

  it('replaces ESC in returned text with ?', () => {
    expect(plain({ m1: '\x1b[31mred' })).toBe('m1:\n    ?[31mred');
    expect(renderNested({ m1: '\x1b[31mred' }, { color: false, stripColors: false })).toBe(
      'm1:\n    \x1b[31mred',
    );
  });

  it('right-strips the text as Salt does and prints nothing for datetimes', () => {
    expect(plain({ m1: 'x  ' })).toBe('m1:\n    x');
    expect(plain({ m1: SaltDatetime.of(2024, 1, 2) })).toBe('m1:');
  });

  it('splits lines like Python str.splitlines()', () => {
    expect(plain({ m1: 'a\r\nb\rc\u2028d\n' })).toBe('m1:\n    a\n    b\n    c\n    d');
  });

  it('decodes UTF-8 bytes and prints keys of Maps in sorted order', () => {
    expect(plain({ m1: new TextEncoder().encode('bytes') })).toBe('m1:\n    bytes');
    expect(
      plain(
        new Map<unknown, unknown>([
          [2, 'b'],
          [1, 'a'],
        ]),
      ),
    ).toBe('1:\n    a\n2:\n    b');
  });

  it('is registered as nested', () => {
    expect(nestedOutputter.name).toBe('nested');
    expect(nestedOutputter.render(RETURNS.bool, { color: false })).toBe('m1:\n    True');
  });
});
