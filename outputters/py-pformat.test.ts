import { describe, expect, it } from 'vitest';
import { pyPformat } from './py-pformat.js';

// Expected strings are Python 3.11's pprint.pformat output for the same data.
describe('pprint.pformat', () => {
  it('keeps short data on one line, dict keys sorted', () => {
    expect(pyPformat({ b: 1, a: [1, 2] })).toBe("{'a': [1, 2], 'b': 1}");
    expect(pyPformat([])).toBe('[]');
  });

  it('breaks long lists one item a line', () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    expect(pyPformat(items)).toBe(`[${items.join(',\n ')}]`);
  });

  it('breaks nested dicts under their keys', () => {
    expect(pyPformat({ k: { a: 'x'.repeat(40), b: 'y'.repeat(40) } })).toBe(
      `{'k': {'a': '${'x'.repeat(40)}',\n       'b': '${'y'.repeat(40)}'}}`,
    );
  });

  it('splits long text at word boundaries', () => {
    const words = 'The quick brown fox jumps over the lazy dog and keeps running far away. '.repeat(2);
    expect(pyPformat(words)).toBe(
      "('The quick brown fox jumps over the lazy dog and keeps running far away. The '\n" +
        " 'quick brown fox jumps over the lazy dog and keeps running far away. ')",
    );
  });
});
