import { describe, expect, it } from 'vitest';
import { SaltConstant, SaltDatetime } from '../serial/salt-types.js';
import { pyBytesRepr, pyRepr, pyStr, pyStrRepr, pyTruthy } from './repr.js';
import { PyTuple } from './value.js';

describe('Python repr()', () => {
  it('quotes text as Python does', () => {
    expect(pyStrRepr('hi')).toBe("'hi'");
    expect(pyStrRepr("it's")).toBe('"it\'s"');
    expect(pyStrRepr('both \' and "')).toBe("'both \\' and \"'");
    expect(pyStrRepr('a\nb\tc\\d\re')).toBe("'a\\nb\\tc\\\\d\\re'");
    expect(pyStrRepr('\x00\x7f\x85\xa0é\u200b\u2028😀')).toBe("'\\x00\\x7f\\x85\\xa0é\\u200b\\u2028😀'");
    expect(pyStrRepr('\ud800')).toBe("'\\ud800'");
  });

  it('writes bytes, datetimes and constants', () => {
    expect(pyBytesRepr(new Uint8Array([0x61, 0x27, 0x00, 0xff, 0x0a]))).toBe('b"a\'\\x00\\xff\\n"');
    expect(pyRepr(SaltDatetime.of(2024, 1, 2))).toBe('datetime.datetime(2024, 1, 2, 0, 0)');
    expect(pyRepr(SaltDatetime.of(2024, 1, 2, 3, 4, 5))).toBe('datetime.datetime(2024, 1, 2, 3, 4, 5)');
    expect(pyRepr(SaltDatetime.of(2024, 1, 2, 3, 4, 0, 7))).toBe('datetime.datetime(2024, 1, 2, 3, 4, 0, 7)');
    expect(pyStr(SaltDatetime.of(2024, 1, 2, 3, 4, 5, 600))).toBe('2024-01-02 03:04:05.000600');
    expect(pyRepr(new SaltConstant('NOT_SET'))).toBe('<Constant.NOT_SET>');
    expect(pyRepr(new SaltConstant('X', 3))).toBe('<Constant.X value=3>');
  });

  it('writes containers, keeping dict order', () => {
    expect(pyRepr({ b: [1, 2.5, null], a: { x: true } })).toBe("{'b': [1, 2.5, None], 'a': {'x': True}}");
    expect(pyRepr(new Map<unknown, unknown>([[1, 'one']]))).toBe("{1: 'one'}");
    const loop: unknown[] = [];
    loop.push(loop);
    expect(pyRepr(loop)).toBe('[[...]]');
  });

  it('writes tuples, with the trailing comma of a 1-tuple', () => {
    expect(pyRepr(new PyTuple([]))).toBe('()');
    expect(pyRepr(new PyTuple(['a']))).toBe("('a',)");
    expect(pyRepr(new PyTuple([1, [2], { k: new PyTuple([null, 1.5]) }]))).toBe(
      "(1, [2], {'k': (None, 1.5)})",
    );
    expect(pyStr(new PyTuple(['x', 'y']))).toBe("('x', 'y')");
  });

  it('tells truthiness as bool() does', () => {
    for (const v of [
      null,
      undefined,
      false,
      0,
      -0,
      0n,
      '',
      [],
      {},
      new Map(),
      new Uint8Array(),
      new PyTuple([]),
    ]) {
      expect(pyTruthy(v)).toBe(false);
    }
    for (const v of [true, 1, Number.NaN, 'x', [0], { a: 0 }, new PyTuple([0]), SaltDatetime.of(1, 1, 1)]) {
      expect(pyTruthy(v)).toBe(true);
    }
  });

  it('str() leaves text unquoted', () => {
    expect(pyStr('x')).toBe('x');
    expect(pyStr(['x'])).toBe("['x']");
  });
});
