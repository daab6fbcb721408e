import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SaltConstant, SaltDatetime } from '../kernel/serial/salt-types.js';
import { RETURNS } from './fixtures.js';
import { renderYaml, yamlOutputter } from './yaml.js';

// Expected strings are what Salt 3006.18's salt/output/yaml_out.py prints through PyYAML's
// CSafeDumper (libyaml 0.2.5) for the same data.
const yaml = (data: unknown, indent?: number | 'pretty' | null) =>
  renderYaml(data, indent === undefined ? { color: false } : { color: false, indent });

describe('yaml outputter', () => {
  it('prints simple values as PyYAML does', () => {
    expect(yaml(RETURNS.bool)).toBe('m1: true');
    expect(yaml(RETURNS.none)).toBe('m1: null');
    expect(yaml(false)).toBe('false');
  });

  it('single-quotes multi-line text with a blank line per break', () => {
    expect(yaml(RETURNS.multiline)).toBe("m1: 'hi\n\n  there'");
    expect(yaml(RETURNS.runAll)).toBe(
      "m1:\n  pid: 4242\n  retcode: 0\n  stderr: ''\n  stdout: 'total 0\n\n    -rw-r--r-- 1 root root 0 a.txt'",
    );
  });

  it('uses block style with unindented lists under keys', () => {
    expect(yaml(RETURNS.nested)).toBe(
      'm1:\n  foo:\n    bar: baz\n    dictionary:\n      abc: 123\n      def: 456\n    list:\n    - Hello\n    - World',
    );
    expect(yaml(RETURNS.listNested)).toBe("m1:\n- 1\n- - 2\n  - 3\n- a: b\n- 'multi\n\n  line'");
  });

  it('honours --out-indent', () => {
    expect(yaml(RETURNS.nested, 4)).toBe(
      'm1:\n    foo:\n        bar: baz\n        dictionary:\n            abc: 123\n            def: 456\n' +
        '        list:\n        - Hello\n        - World',
    );
    expect(yaml(RETURNS.listNested, 4)).toBe("m1:\n- 1\n-   - 2\n    - 3\n-   a: b\n- 'multi\n\n    line'");
    expect(yaml(RETURNS.bool, 0)).toBe('m1: true');
  });

  it('switches to flow style for a negative --out-indent', () => {
    expect(yaml(RETURNS.bool, -1)).toBe('{m1: true}');
    expect(yaml(RETURNS.nested, -1)).toBe(
      '{m1: {foo: {bar: baz, dictionary: {abc: 123, def: 456}, list: [Hello, World]}}}',
    );
    expect(yaml(RETURNS.empty, -1)).toBe("{m1: {}, m2: [], m3: ''}");
  });

  it('prints floats as PyYAML does', () => {
    expect(yaml(RETURNS.numbers)).toBe(
      'm1:\n  big: 1.0e+16\n  float: 1.5\n  int: 42\n  neg: -7\n  small: 1.0e-05\n  whole: 1.0',
    );
    expect(yaml({ m1: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] }, -1)).toBe(
      '{m1: [.nan, .inf, -.inf]}',
    );
  });

  it('quotes text that would read back as another type or as syntax', () => {
    expect(yaml(RETURNS.tricky)).toBe(
      "m1:\n- 'yes'\n- '1.0'\n- ''\n- 'a: b'\n- it's\n- '- x'\n- '~'\n- 'trail '\n- '2024-01-01'\n- \"tab\\there\"",
    );
    expect(yaml(RETURNS.empty)).toBe("m1: {}\nm2: []\nm3: ''");
  });

  it('keeps BMP unicode and escapes astral characters as libyaml does', () => {
    expect(yaml(RETURNS.unicode)).toBe('m1:\n  city: 東京\n  emoji: "\\U0001F600"\n  name: Zoë');
  });

  it('folds long text at 80 columns', () => {
    expect(yaml(RETURNS.long)).toBe(
      'm1: word word word word word word word word word word word word word word word word\n  word word word word',
    );
    const stdout =
      'This is a long line of output that goes on and on past the eighty column limit of the emitter';
    expect(yaml({ m1: { stdout } })).toBe(
      'm1:\n  stdout: This is a long line of output that goes on and on past the eighty column\n    limit of the emitter',
    );
  });

  it('writes bytes as !!binary, datetimes as timestamps and constants as NULL', () => {
    expect(yaml({ m1: new Uint8Array([0, 1, 0x62, 0x69, 0x6e, 0x61, 0x72, 0x79]) })).toBe(
      'm1: !!binary |\n  AAFiaW5hcnk=',
    );
    expect(yaml({ m1: SaltDatetime.of(2024, 1, 2, 3, 4, 5, 600) })).toBe('m1: 2024-01-02 03:04:05.000600');
    expect(yaml({ m1: new SaltConstant('NOT_SET') })).toBe('m1: NULL');
    // libyaml tags a quoted non-str scalar with `!`: a timestamp in flow style has a ':' in it.
    expect(yaml({ m1: [SaltDatetime.of(2024, 1, 2, 3, 4, 5)] }, -1)).toBe("{m1: [! '2024-01-02 03:04:05']}");
  });

  it('uses an explicit key for keys over 128 bytes', () => {
    const key = 'k'.repeat(129);
    expect(yaml({ [key]: 1 })).toBe(`? ${key}\n: 1`);
    expect(yaml({ ['k'.repeat(128)]: 1 })).toBe(`${'k'.repeat(128)}: 1`);
  });

  it('prints nothing for output_indent pretty or null, as Salt fails there', () => {
    expect(yaml(RETURNS.bool, 'pretty')).toBe('');
    expect(yaml(RETURNS.bool, null)).toBe('');
  });

  it('reads back as the same data', () => {
    for (const data of [RETURNS.nested, RETURNS.runAll, RETURNS.tricky, RETURNS.unicode, RETURNS.long]) {
      expect(parse(yamlOutputter.render(data, { color: false }))).toEqual(data);
    }
  });
});
