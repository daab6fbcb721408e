import { describe, expect, it } from 'vitest';
import { SaltConstant, SaltDatetime, SaltFloat } from '../serial/salt-types.js';
import {
  compareCodePoints,
  cpLength,
  PyTuple,
  pyFloatRepr,
  pyIntRepr,
  pyRstrip,
  pySortedKeys,
  pySplitlines,
  pyTypeName,
  pyValue,
} from './value.js';

describe('Python value model', () => {
  it('classifies JS values as Python types', () => {
    expect(pyValue(undefined).kind).toBe('none');
    expect(pyValue(1).kind).toBe('int');
    expect(pyValue(1.5).kind).toBe('float');
    expect(pyValue(-0).kind).toBe('float');
    expect(pyValue(new SaltFloat(2)).kind).toBe('float');
    expect(pyValue(10n).kind).toBe('int');
    expect(pyValue(new Set([1])).kind).toBe('list');
    expect(pyValue(new Map()).kind).toBe('dict');
    expect(pyValue(Object.create(null)).kind).toBe('dict');
    expect(pyValue(new Uint8Array(1)).kind).toBe('bytes');
    expect(pyValue(new Date(0)).kind).toBe('datetime');
    expect(pyValue(() => 1).kind).toBe('other');
  });

  it('names types as str(type(v)) does', () => {
    const cases: Array<[unknown, string]> = [
      [null, 'NoneType'],
      [true, 'bool'],
      [3, 'int'],
      [2n ** 70n, 'int'],
      [1.5, 'float'],
      [-0, 'float'],
      [new SaltFloat(1), 'float'],
      ['s', 'str'],
      [new Uint8Array(), 'bytes'],
      [[1], 'list'],
      [new PyTuple([1]), 'tuple'],
      [{ a: 1 }, 'dict'],
      [new Map(), 'dict'],
      [SaltDatetime.of(2024, 1, 2), 'datetime.datetime'],
      [new SaltConstant('NOT_SET'), 'salt.defaults._Constant'],
    ];
    for (const [v, name] of cases) expect(pyTypeName(v)).toBe(`<class '${name}'>`);
  });

  it('formats floats like Python repr()', () => {
    const cases: Array<[number, string]> = [
      [1, '1.0'],
      [1.5, '1.5'],
      [0.1, '0.1'],
      [-0, '-0.0'],
      [1e16, '1e+16'],
      [1e15, '1000000000000000.0'],
      [1.5e16, '1.5e+16'],
      [1e-4, '0.0001'],
      [1e-5, '1e-05'],
      [1.23e-7, '1.23e-07'],
      [1e22, '1e+22'],
      [1.2345678901234568e16, '1.2345678901234568e+16'],
      [2.5e-310, '2.5e-310'],
      [1.7976931348623157e308, '1.7976931348623157e+308'],
      [Number.NaN, 'nan'],
      [Number.NEGATIVE_INFINITY, '-inf'],
    ];
    for (const [x, text] of cases) expect(pyFloatRepr(x)).toBe(text);
    expect(pyIntRepr(1e21)).toBe('1000000000000000000000');
    expect(pyIntRepr(-(2n ** 64n))).toBe('-18446744073709551616');
  });

  it('splits lines like str.splitlines()', () => {
    expect(pySplitlines('')).toEqual([]);
    expect(pySplitlines('a\n')).toEqual(['a']);
    expect(pySplitlines('a\n\nb')).toEqual(['a', '', 'b']);
    expect(pySplitlines('a\r\nb\rc\x0bd\x1ce\x85f')).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(pySplitlines('a\r\nb\n', true)).toEqual(['a\r\n', 'b\n']);
  });

  it('strips what str.rstrip() strips', () => {
    expect(pyRstrip('a \t\n\x1f\xa0\u3000')).toBe('a');
    expect(pyRstrip('a\ufeff')).toBe('a\ufeff');
    expect(pyRstrip('\x1b[0;0m')).toBe('\x1b[0;0m');
  });

  it('sorts keys as Python sorted() does', () => {
    expect(pySortedKeys(['b', 'B', 'a', 'é', '\uffff', '😀'])).toEqual(['B', 'a', 'b', 'é', '\uffff', '😀']);
    expect(pySortedKeys([10, 2, true])).toEqual([true, 2, 10]);
    expect(pySortedKeys(['a', 1])).toBeUndefined();
    expect(compareCodePoints('😀', '\uffff')).toBeGreaterThan(0);
    expect(cpLength('a😀')).toBe(2);
  });
});
