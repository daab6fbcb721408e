import { describe, expect, it } from 'vitest';
import { deepDiff } from './freezer.js';

// Salt's salt.utils.dictdiffer.deep_diff, as Salt 3006.18 answered freezer.compare for these
describe('deepDiff', () => {
  it('keeps only what differs, down into nested mappings', () => {
    expect(deepDiff({ a: 1, b: 2 }, { a: 1, b: 3, c: 4 })).toEqual({ old: { b: 2 }, new: { b: 3, c: 4 } });
    expect(deepDiff({ r: { x: 1, y: { b: 1, c: 2 } } }, { r: { x: 1, y: { b: 1, c: 3 } } })).toEqual({
      old: { r: { y: { c: 2 } } },
      new: { r: { y: { c: 3 } } },
    });
    expect(deepDiff({ a: [1, 2] }, { a: [1, 2] })).toEqual({});
    expect(deepDiff({}, { a: {} })).toEqual({ new: { a: {} } });
  });
});
