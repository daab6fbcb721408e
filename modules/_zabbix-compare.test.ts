/**
 * `compare_params` of the zabbix module: what Salt 3006.18's function returned for the same
 * inputs (salt.modules.zabbix.compare_params called directly), quirks included: a nested dict
 * always counts as changed when old values are asked for, lists of falsy items never differ.
 */
import { describe, expect, it } from 'vitest';
import { compareParams } from './_zabbix-compare.js';

describe('zabbix compare_params (Salt 3006.18 values)', () => {
  it.each([
    [{ a: '1', b: [1, 2] }, { a: '1', b: [1, 2], c: 3 }, false, {}],
    [{ a: '2', b: [1, 3] }, { a: '1', b: [1, 2], c: 3 }, false, { a: '2', b: [1, 3] }],
    [{ a: '2', c: 3 }, { a: '1', b: [1, 2], c: 3 }, true, { new: { a: '2' }, old: { a: '1' } }],
    [{ z: 1 }, { a: 1 }, false, { z: 1 }],
    [[1], [1, 2], true, { new: [1], old: [1, 2] }],
    ['x', 'y', true, { new: 'x', old: 'y' }],
    [true, 1, false, 'True'],
    [{ a: { b: 1 } }, { a: { b: 1 } }, true, { new: { a: { b: 1 } }, old: { a: { b: 1 } } }],
    [{ a: [] }, { a: [] }, false, {}],
    [[{ x: '1' }], [{ x: '1' }], false, null],
    [[{ x: '1' }], [{ x: '2' }], false, [{ x: '1' }]],
    [[0], [1], false, null],
    [null, null, false, null],
    [{ a: [1] }, { a: [2] }, true, { new: { a: [1] }, old: { a: [2] } }],
    [[1], [2], true, { new: [1], old: [2] }],
  ])('compare_params(%j, %j, %s)', (defined, existing, old, want) => {
    expect(compareParams(defined, existing, old)).toEqual(want);
  });

  it("raises Salt's SaltException for a type mismatch", () => {
    expect(() => compareParams({ a: 1 }, { a: '2' }, false)).toThrow(
      `Zabbix object comparison failed (data type mismatch). Expecting <class 'str'>, got <class 'int'>. Existing value: "2", defined value: "1").`,
    );
  });
});
