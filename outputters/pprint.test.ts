import { describe, expect, it } from 'vitest';
import { RETURNS } from './fixtures.js';
import { renderPprint } from './pprint.js';

// Expected strings are what Salt 3006.18's salt/output/pprint_out.py prints (Python 3.11 pprint).
const pp = (data: unknown, indent?: number) =>
  renderPprint(data, indent === undefined ? { color: false } : { color: false, indent });

describe('pprint outputter', () => {
  it('prints short data on one line with sorted keys', () => {
    expect(pp(RETURNS.bool)).toBe("{'m1': True}");
    expect(pp(RETURNS.unicode)).toBe("{'m1': {'city': '東京', 'emoji': '😀', 'name': 'Zoë'}}");
  });

  it('breaks long dicts and lists', () => {
    expect(pp(RETURNS.nested)).toBe(
      "{'m1': {'foo': {'bar': 'baz',\n                'dictionary': {'abc': 123, 'def': 456},\n" +
        "                'list': ['Hello', 'World']}}}",
    );
    expect(pp(RETURNS.numbers)).toBe(
      "{'m1': {'big': 1e+16,\n        'float': 1.5,\n        'int': 42,\n        'neg': -7,\n" +
        "        'small': 1e-05,\n        'whole': 1.0}}",
    );
  });

  it('splits long text into adjacent literals', () => {
    expect(pp(RETURNS.long)).toBe(
      "{'m1': 'word word word word word word word word word word word word word word '\n       'word word word word word word'}",
    );
  });

  it('uses --out-indent as the indent per level', () => {
    expect(
      pp({ m1: Array.from({ length: 20 }, (_, i) => `item-${i}`) }, 4)
        .split('\n')
        .slice(0, 2),
    ).toEqual(["{   'm1': [   'item-0',", "              'item-1',"]);
  });
});
