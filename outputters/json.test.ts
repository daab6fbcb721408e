import { describe, expect, it } from 'vitest';
import { SaltConstant, SaltDatetime } from '../kernel/serial/salt-types.js';
import { RETURNS } from './fixtures.js';
import { jsonOutputter, pyJsonString, renderJson } from './json.js';

// Expected strings are what Salt 3006.18's salt/output/json_out.py prints for the same data.
const json = (data: unknown, indent?: number | 'pretty' | null) =>
  renderJson(data, indent === undefined ? { color: false } : { color: false, indent });

describe('json outputter', () => {
  it('indents by 4 by default', () => {
    expect(json(RETURNS.bool)).toBe('{\n    "m1": true\n}');
    expect(json(RETURNS.none)).toBe('{\n    "m1": null\n}');
    expect(json(RETURNS.multiline)).toBe('{\n    "m1": "hi\\nthere"\n}');
    expect(json(false)).toBe('false');
  });

  it('prints one line with Python separators for a negative --out-indent', () => {
    expect(json(RETURNS.bool, -1)).toBe('{"m1": true}');
    expect(json(RETURNS.nested, -1)).toBe(
      '{"m1": {"foo": {"bar": "baz", "dictionary": {"abc": 123, "def": 456}, "list": ["Hello", "World"]}}}',
    );
    expect(json(RETURNS.bool, null)).toBe('{"m1": true}');
  });

  it('breaks lines without indenting for --out-indent 0', () => {
    expect(json(RETURNS.listNested, 0)).toBe(
      '{\n"m1": [\n1,\n[\n2,\n3\n],\n{\n"a": "b"\n},\n"multi\\nline"\n]\n}',
    );
  });

  it('keeps key order, empty collections inline', () => {
    expect(json(RETURNS.runAll)).toBe(
      '{\n    "m1": {\n        "pid": 4242,\n        "retcode": 0,\n        "stderr": "",\n' +
        '        "stdout": "total 0\\n-rw-r--r-- 1 root root 0 a.txt"\n    }\n}',
    );
    expect(json(RETURNS.empty, -1)).toBe('{"m1": {}, "m2": [], "m3": ""}');
  });

  it('sorts keys for output_indent: pretty', () => {
    expect(json({ m1: { b: 1, a: 2 } }, 'pretty')).toBe(
      '{\n    "m1": {\n        "a": 2,\n        "b": 1\n    }\n}',
    );
  });

  it('writes floats as Python does', () => {
    expect(json(RETURNS.numbers, -1)).toBe(
      '{"m1": {"int": 42, "float": 1.5, "whole": 1.0, "big": 1e+16, "small": 1e-05, "neg": -7}}',
    );
    expect(json({ m1: [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] }, -1)).toBe(
      '{"m1": [NaN, Infinity, -Infinity]}',
    );
  });

  it('keeps non-ASCII text unescaped (ensure_ascii=False)', () => {
    expect(json(RETURNS.unicode)).toBe(
      '{\n    "m1": {\n        "name": "Zoë",\n        "city": "東京",\n        "emoji": "😀"\n    }\n}',
    );
    expect(pyJsonString('a"b\\c\u0001\x7f\u2028')).toBe('"a\\"b\\\\c\\u0001\x7f\u2028"');
  });

  it('prints values JSON cannot hold as their Python repr', () => {
    expect(json({ m1: new Uint8Array([0, 0x41]) }, -1)).toBe('{"m1": "b\'\\\\x00A\'"}');
    expect(json({ m1: SaltDatetime.of(2024, 1, 2, 3, 4) }, -1)).toBe(
      '{"m1": "datetime.datetime(2024, 1, 2, 3, 4)"}',
    );
    expect(json({ m1: new SaltConstant('NOT_SET') }, -1)).toBe('{"m1": "<Constant.NOT_SET>"}');
  });

  it('prints {} where Python json fails on a key', () => {
    expect(json(new Map([[new Uint8Array([1]), 1]]))).toBe('{}');
  });

  it('converts number keys of Maps as Python does', () => {
    expect(
      json(
        new Map<unknown, unknown>([
          [1, 'a'],
          [true, 'b'],
          [null, 'c'],
        ]),
        -1,
      ),
    ).toBe('{"1": "a", "true": "b", "null": "c"}');
  });

  it('reproduces salt-call --out=json key.finger from the golden vectors', () => {
    const finger =
      '4a:c6:25:af:07:0c:06:b2:bb:10:26:19:89:7f:2c:44:66:23:d4:75:1f:e2:18:7b:29:a2:19:b6:2b:9e:d4:8e';
    expect(`${jsonOutputter.render({ local: finger }, { color: true })}\n`).toBe(
      `{\n    "local": "${finger}"\n}\n`,
    );
  });
});
