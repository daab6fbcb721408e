import { describe, expect, it } from 'vitest';
import { mergePillar } from './merge.js';

// Expected values: Salt 3006.18's salt.utils.dictupdate.merge run on the same inputs.
const a = () => ({ k: { x: 1, y: [1, 2] }, top: 'a', only_a: 1, l: [1] });
const b = () => ({ k: { y: [2, 3], z: 3 }, top: 'b', only_b: 2, l: [1, 5] });

describe("mergePillar: Salt's pillar_source_merging_strategy", () => {
  it.each([
    ['recurse', false, { k: { x: 1, y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['recurse', true, { k: { x: 1, y: [1, 2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['smart', false, { k: { x: 1, y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['smart', true, { k: { x: 1, y: [1, 2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['aggregate', false, { k: { y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['aggregate', true, { k: { y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['overwrite', false, { k: { y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['overwrite', true, { k: { y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['none', false, { k: { x: 1, y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    ['none', true, { k: { x: 1, y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
    [
      'list',
      false,
      {
        k: [
          { x: 1, y: [1, 2] },
          { y: [2, 3], z: 3 },
        ],
        l: [[1], [1, 5]],
        only_a: 1,
        top: ['a', 'b'],
      },
    ],
    ['bogus', true, { k: { x: 1, y: [2, 3], z: 3 }, l: [1, 5], only_a: 1, only_b: 2, top: 'b' }],
  ])('%s (merge_lists %s)', (strategy, mergeLists, expected) => {
    const left = a();
    const right = b();
    expect(mergePillar(left, right, strategy, mergeLists)).toEqual(expected);
    // the inputs are left as they were
    expect(left).toEqual(a());
    expect(right).toEqual(b());
  });

  it('smart is aggregate under a yamlex renderer', () => {
    expect(mergePillar(a(), b(), 'smart', false, 'jinja|yamlex')).toEqual({
      k: { y: [2, 3], z: 3 },
      l: [1, 5],
      only_a: 1,
      only_b: 2,
      top: 'b',
    });
  });

  it('merged lists keep the first list and add what it lacks (Python equality: 1 == 1.0 == True)', () => {
    expect(mergePillar({ l: [1, 'x'] }, { l: [true, 'y', 1.0] }, 'recurse', true)).toEqual({
      l: [1, 'x', 'y'],
    });
  });

  it('the result shares nothing with its inputs', () => {
    const right = { k: { deep: [1] } };
    const out = mergePillar({}, right);
    (out.k as { deep: number[] }).deep.push(2);
    expect(right.k.deep).toEqual([1]);
  });
});
