import { describe, expect, it } from 'vitest';
import { decodeJson, encodeJson, toJsonValue } from './json-value.js';

describe('json-value', () => {
  it('round-trips what plain JSON and jsonb cannot hold', () => {
    const value = {
      bytes: Buffer.from([0, 1, 255]),
      u8: new Uint8Array([7, 0]),
      big: 2n ** 70n,
      inf: Number.POSITIVE_INFINITY,
      nan: Number.NaN,
      nul: 'a\u0000b',
      nested: [{ x: Buffer.from('hi') }],
      plain: { a: 1, b: 'text', c: null, d: [true, false] },
    };
    const back = decodeJson(encodeJson(value)) as Record<string, unknown>;
    expect(back.bytes).toEqual(Buffer.from([0, 1, 255]));
    expect(back.u8).toEqual(Buffer.from([7, 0]));
    expect(back.big).toBe(2n ** 70n);
    expect(back.inf).toBe(Number.POSITIVE_INFINITY);
    expect(back.nan).toBeNaN();
    expect(back.nul).toBe('a\u0000b');
    expect(back.nested).toEqual([{ x: Buffer.from('hi') }]);
    expect(back.plain).toEqual(value.plain);
    expect(encodeJson(value)).not.toContain('\\u0000');
  });

  it('keeps plain JSON plain, and a real object that looks like a tag stays an object', () => {
    expect(toJsonValue({ a: [1, 'x'] })).toEqual({ a: [1, 'x'] });
    const lookalike = { '$tsalt:bytes': 'AAE=' };
    expect(decodeJson(encodeJson(lookalike))).toEqual(lookalike);
    expect(toJsonValue({ skip: undefined, keep: 1 })).toEqual({ keep: 1 });
  });
});
