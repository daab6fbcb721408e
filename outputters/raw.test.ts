import { describe, expect, it } from 'vitest';
import { RETURNS } from './fixtures.js';
import { rawOutputter, renderRaw } from './raw.js';

// Expected strings are what Salt 3006.18's salt/output/raw.py prints for the same data.
describe('raw outputter', () => {
  it('prints the Python repr of the return', () => {
    expect(renderRaw(RETURNS.bool)).toBe("{'m1': True}");
    expect(renderRaw(RETURNS.none)).toBe("{'m1': None}");
    expect(renderRaw(RETURNS.multiline)).toBe("{'m1': 'hi\\nthere'}");
    expect(renderRaw(RETURNS.nested)).toBe(
      "{'m1': {'foo': {'bar': 'baz', 'dictionary': {'abc': 123, 'def': 456}, 'list': ['Hello', 'World']}}}",
    );
    expect(renderRaw(RETURNS.numbers)).toBe(
      "{'m1': {'int': 42, 'float': 1.5, 'whole': 1.0, 'big': 1e+16, 'small': 1e-05, 'neg': -7}}",
    );
    expect(renderRaw(RETURNS.empty)).toBe("{'m1': {}, 'm2': [], 'm3': ''}");
    expect(renderRaw(RETURNS.unicode)).toBe("{'m1': {'name': 'Zoë', 'city': '東京', 'emoji': '😀'}}");
    expect(renderRaw(RETURNS.listNested)).toBe("{'m1': [1, [2, 3], {'a': 'b'}, 'multi\\nline']}");
  });

  it('prints top-level text without quotes', () => {
    expect(renderRaw('hello\n')).toBe('hello');
    expect(renderRaw(false)).toBe('False');
  });

  it('is registered as raw', () => {
    expect(rawOutputter.render({ m1: [true, null] }, { color: true })).toBe("{'m1': [True, None]}");
  });
});
