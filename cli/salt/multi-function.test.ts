import { describe, expect, it } from 'vitest';
import { splitMultiFunctionArgs } from './multi-function.js';

describe('splitMultiFunctionArgs (Salt CLI rules)', () => {
  it('standalone separators', () => {
    expect(splitMultiFunctionArgs(['test.ping', 'test.echo'], [',', 'hello'])).toEqual([[], ['hello']]);
    expect(splitMultiFunctionArgs(['a.b', 'c.d', 'e.f'], ['1', ',', '2', ',', '3'])).toEqual([
      ['1'],
      ['2'],
      ['3'],
    ]);
  });
  it('separators inside words', () => {
    expect(splitMultiFunctionArgs(['test.ping', 'test.echo'], [',hello'])).toEqual([[], ['hello']]);
    expect(splitMultiFunctionArgs(['a.b', 'c.d'], ['x,y'])).toEqual([['x'], ['y']]);
  });
  it('fewer argument lists than functions are padded', () => {
    expect(splitMultiFunctionArgs(['a.b', 'c.d', 'e.f'], ['x'])).toEqual([['x'], [], []]);
  });
  it('a custom separator', () => {
    expect(splitMultiFunctionArgs(['a.b', 'c.d'], ['1,2', '--', 'x'], '--')).toEqual([['1,2'], ['x']]);
  });
  it('more argument lists than functions is an error', () => {
    expect(() => splitMultiFunctionArgs(['a.b', 'c.d'], ['1,2,3'])).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_INVOCATION' }),
    );
  });
});
