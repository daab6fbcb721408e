/**
 * The Python-semantics helpers of the zabbix_template state's part sync: `obj[key]` and
 * `for x in v` raising what Python 3.11 raises (texts measured with python3 on this machine).
 */
import { describe, expect, it } from 'vitest';
import { pyIter, subscript } from './_zabbix-template-sync.js';

const raised = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return `${(e as Error).name} ${(e as Error).message}`;
  }
  return 'no error';
};

describe('zabbix_template part-sync helpers', () => {
  it.each([
    [{}, "KeyError 'k'"],
    [[1], 'TypeError list indices must be integers or slices, not str'],
    ['s', "TypeError string indices must be integers, not 'str'"],
    [null, "TypeError 'NoneType' object is not subscriptable"],
    [5, "TypeError 'int' object is not subscriptable"],
  ])('subscript(%j, "k") raises as Python', (obj, want) => {
    expect(raised(() => subscript(obj, 'k'))).toBe(want);
  });

  it('subscript reads a dict key', () => {
    expect(subscript({ k: 1 }, 'k')).toBe(1);
  });

  it('pyIter iterates a list, a str by character, a dict by key; else raises', () => {
    expect(pyIter([1, 2])).toEqual([1, 2]);
    expect(pyIter('ab')).toEqual(['a', 'b']);
    expect(pyIter({ a: 1 })).toEqual(['a']);
    expect(raised(() => pyIter(null))).toBe("TypeError 'NoneType' object is not iterable");
    expect(raised(() => pyIter(5))).toBe("TypeError 'int' object is not iterable");
  });
});
