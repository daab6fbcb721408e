import { describe, expect, it } from 'vitest';
import { prng } from '../../test/support/prng.js';
import { SaltError } from '../errors.js';
import { unpackIpc, unpackNetwork } from './decoder.js';
import { packIpc, packNetwork } from './encoder.js';
import { SaltConstant, SaltDatetime, SaltFloat } from './salt-types.js';

const hex = (h: string): Buffer => Buffer.from(h.replace(/\s+/g, ''), 'hex');

function decodeError(fn: () => unknown): SaltError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SaltError);
    expect((err as SaltError).code).toBe('SALT_ERR_BUS_DECODE');
    return err as SaltError;
  }
  throw new Error('expected SALT_ERR_BUS_DECODE, nothing was thrown');
}

describe('malformed input', () => {
  const valid = [
    packNetwork({ fun: 'test.arg', arg: ['a', 1, { k: 'v' }], tok: Buffer.alloc(40, 0xff), n: 2 ** 40 }),
    packIpc({ when: SaltDatetime.parseIso('2025-01-01T00:00:00.5'), b: Buffer.alloc(300) }),
    packIpc([new SaltConstant('NOT_SET'), -1.5, 'x'.repeat(70), -(2 ** 40)]),
  ];

  it('rejects empty input and every truncation of valid messages', () => {
    decodeError(() => unpackNetwork(Buffer.alloc(0)));
    for (const msg of valid) {
      for (let cut = 0; cut < msg.length; cut++) {
        decodeError(() => unpackNetwork(msg.subarray(0, cut)));
        decodeError(() => unpackIpc(msg.subarray(0, cut)));
      }
    }
  });

  it('rejects trailing bytes', () => {
    const err = decodeError(() => unpackIpc(Buffer.concat([valid[0] as Buffer, hex('c0')])));
    expect(err.message).toMatch(/trailing/);
    decodeError(() => unpackNetwork(hex('01 02')));
  });

  it('rejects the reserved type byte 0xc1', () => {
    expect(decodeError(() => unpackNetwork(hex('c1'))).message).toMatch(/0xc1/);
    decodeError(() => unpackIpc(hex('92 01 c1')));
  });

  it('rejects absurd lengths before allocating anything', () => {
    const started = Date.now();
    for (const h of [
      'db ffffffff 61', // str 32 of 4 GiB
      'c6 ffffffff 00', // bin 32
      'c9 ffffffff 4e 00', // ext 32
      'dd ffffffff c0', // array 32 of 4 G items
      'df ffffffff c0 c0', // map 32
      'dc ffff c0', // array 16
      'de 0002 a161 01', // map of 2 with 1 entry
      'd9 20 61', // str 8 of 32 bytes, 1 present
    ]) {
      decodeError(() => unpackNetwork(hex(h)));
      decodeError(() => unpackIpc(hex(h)));
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects nesting deeper than 1024 without overflowing the stack', () => {
    const deep = (n: number): Buffer => Buffer.concat([Buffer.alloc(n, 0x91), hex('c0')]);
    expect(unpackIpc(deep(1000))).toBeDefined();
    expect(decodeError(() => unpackIpc(deep(1100))).message).toMatch(/nesting/);
    decodeError(() =>
      unpackNetwork(Buffer.concat([Buffer.alloc(200_000, 0x81), Buffer.alloc(200_000, 0xa0)])),
    );
  });

  it('rejects unhashable map keys, as Python does', () => {
    decodeError(() => unpackNetwork(hex('81 90 01'))); // {[]: 1}
    decodeError(() => unpackIpc(hex('81 80 01'))); // {{}: 1}
  });

  it('rejects bad datetimes and constants', () => {
    const ext78 = (text: string) =>
      Buffer.concat([hex('c7'), Buffer.from([text.length, 78]), Buffer.from(text, 'latin1')]);
    expect(unpackIpc(ext78('20240229T23:59:59.000001'))).toBeInstanceOf(SaltDatetime);
    for (const bad of [
      '20230229T00:00:00.000000',
      '20240101T24:00:00.000000',
      'garbage',
      '20240101T00:00:00',
    ]) {
      decodeError(() => unpackIpc(ext78(bad)));
    }
    decodeError(() => unpackIpc(hex('c7 02 4e ff fe')));
    const ext79 = (body: Buffer) => Buffer.concat([hex('c7'), Buffer.from([body.length, 79]), body]);
    expect(unpackIpc(ext79(packIpc(['X', 1])))).toEqual(new SaltConstant('X', 1));
    decodeError(() => unpackIpc(ext79(packIpc(['X']))));
    decodeError(() => unpackIpc(ext79(packIpc([1, 2]))));
    decodeError(() => unpackIpc(ext79(hex('92 a1 ff c0')))); // name is not UTF-8
    decodeError(() => unpackIpc(ext79(hex('92 a1 58 c0 c0')))); // trailing byte inside the body
  });

  it('rejects what is not a byte array', () => {
    decodeError(() => unpackIpc('81' as unknown as Uint8Array));
  });

  it('fuzz: random and mutated inputs either decode or throw SALT_ERR_BUS_DECODE', () => {
    const rand = prng(20251122);
    const check = (buf: Buffer): void => {
      for (const unpack of [unpackNetwork, unpackIpc]) {
        try {
          unpack(buf);
        } catch (err) {
          expect((err as SaltError).code).toBe('SALT_ERR_BUS_DECODE');
        }
      }
    };
    for (let i = 0; i < 3000; i++) {
      const len = Math.floor(rand() * 40);
      check(Buffer.from(Array.from({ length: len }, () => Math.floor(rand() * 256))));
    }
    for (const msg of valid) {
      for (let i = 0; i < 1000; i++) {
        const m = Buffer.from(msg);
        for (let k = 0; k < 3; k++) m[Math.floor(rand() * m.length)] = Math.floor(rand() * 256);
        check(m);
      }
    }
  });
});

describe('network decoding (salt.payload.loads(b))', () => {
  it('reads every str as bytes, then valid UTF-8 as text and the rest as Buffer', () => {
    const v = unpackNetwork(packNetwork({ a: 'héllo', b: Buffer.from('ok'), c: Buffer.from([0xff, 0x00]) }));
    expect(v).toEqual({ a: 'héllo', b: 'ok', c: Buffer.from([0xff, 0x00]) });
  });

  it('also turns UTF-8 bin into text (decode_embedded_strs does not know the wire type)', () => {
    expect(unpackNetwork(hex('c4 02 6f 6b'))).toBe('ok');
    expect(unpackNetwork(hex('c4 01 ff'))).toEqual(Buffer.from([0xff]));
  });

  it('applies Python strict UTF-8: overlong, surrogates, beyond U+10FFFF and cut sequences stay bytes', () => {
    for (const bad of [
      'c0 80',
      'e0 80 80',
      'ed a0 80',
      'f4 90 80 80',
      'f8 88 80 80 80',
      'e2 82',
      '80',
      'c3 28',
    ]) {
      const bytes = hex(bad);
      const short = Buffer.concat([Buffer.from([0xa0 | bytes.length]), bytes]);
      expect(unpackNetwork(short)).toEqual(bytes);
      const long = Buffer.concat([Buffer.from('x'.repeat(40)), bytes]); // the native validation path
      expect(unpackNetwork(packNetwork(long))).toEqual(long);
    }
    for (const good of ['€', '𝄞', '﻿bom', '\u0000', 'é'.repeat(30)]) {
      expect(unpackNetwork(packNetwork(Buffer.from(good)))).toBe(good);
    }
  });

  it('keeps non-UTF-8 map keys as Buffer keys of a Map', () => {
    const v = unpackNetwork(hex('82 a2 ff 01 01 a2 6f 6b 02')) as Map<unknown, unknown>;
    expect(v).toBeInstanceOf(Map);
    expect([...v.entries()]).toEqual([
      [Buffer.from([0xff, 0x01]), 1],
      ['ok', 2],
    ]);
  });

  it('returns the body of unknown ext types (text when UTF-8)', () => {
    expect(unpackNetwork(hex('d4 05 41'))).toBe('A');
    expect(unpackIpc(hex('d4 05 41'))).toEqual(Buffer.from('A'));
    expect(unpackNetwork(hex('d5 ff ff fe'))).toEqual(Buffer.from([0xff, 0xfe]));
  });
});

describe('IPC decoding (salt.payload.loads(b, encoding="utf-8"))', () => {
  it('reads str as text and bin as Buffer', () => {
    expect(unpackIpc(packIpc({ s: 'ok', b: Buffer.from('ok') }))).toEqual({ s: 'ok', b: Buffer.from('ok') });
  });

  it('falls back like Salt when a str is not UTF-8: the whole message is read raw', () => {
    const v = unpackIpc(packNetwork({ id: 'vm1', tok: Buffer.from([0xff]) })) as Map<unknown, unknown>;
    expect([...v.entries()]).toEqual([
      [Buffer.from('id'), Buffer.from('vm1')],
      [Buffer.from('tok'), Buffer.from([0xff])],
    ]);
  });
});

describe('values', () => {
  it('decodes ints beyond 2^53-1 as bigint, others as number', () => {
    expect(unpackIpc(hex('cf 001fffffffffffff'))).toBe(2 ** 53 - 1);
    expect(unpackIpc(hex('cf 0020000000000000'))).toBe(2n ** 53n);
    expect(unpackIpc(hex('cf ffffffffffffffff'))).toBe(2n ** 64n - 1n);
    expect(unpackIpc(hex('d3 ffe0000000000001'))).toBe(-(2 ** 53 - 1));
    expect(unpackIpc(hex('d3 ffe0000000000000'))).toBe(-(2n ** 53n));
    expect(unpackIpc(hex('d3 8000000000000000'))).toBe(-(2n ** 63n));
    expect(unpackIpc(hex('d3 ffffffffffffffff'))).toBe(-1);
    expect(unpackIpc(hex('d2 80000000'))).toBe(-(2 ** 31));
    expect(unpackIpc(hex('d1 8000'))).toBe(-32768);
    expect(unpackIpc(hex('d0 80'))).toBe(-128);
    expect(unpackIpc(hex('ce ffffffff'))).toBe(2 ** 32 - 1);
  });

  it('decodes float 32 and float 64; exactFloats keeps integral floats as SaltFloat', () => {
    expect(unpackIpc(hex('ca 3fc00000'))).toBe(1.5);
    expect(unpackIpc(hex('cb 3ff0000000000000'))).toBe(1);
    expect(unpackIpc(hex('cb 3ff0000000000000'), { exactFloats: true })).toEqual(new SaltFloat(1));
    expect(unpackIpc(hex('cb 3ff8000000000000'), { exactFloats: true })).toBe(1.5);
    expect(Object.is(unpackIpc(hex('cb 8000000000000000')), -0)).toBe(true);
  });

  it('keeps map order: plain objects only when JS would not reorder the keys', () => {
    expect(
      Object.keys(
        unpackIpc(
          packIpc(
            new Map([
              ['b', 1],
              ['a', 2],
            ]),
          ),
        ) as object,
      ),
    ).toEqual(['b', 'a']);
    expect(
      unpackIpc(
        packIpc(
          new Map([
            ['0', 'x'],
            ['1', 'y'],
            ['n', 'z'],
          ]),
        ),
      ),
    ).toEqual({ 0: 'x', 1: 'y', n: 'z' });
    const moved = unpackIpc(
      packIpc(
        new Map([
          ['n', 'z'],
          ['1', 'y'],
        ]),
      ),
    );
    expect(moved).toBeInstanceOf(Map);
    expect([...(moved as Map<unknown, unknown>).keys()]).toEqual(['n', '1']);
    expect(
      unpackIpc(
        packIpc(
          new Map([
            ['2', 1],
            ['1', 2],
          ]),
        ),
      ),
    ).toBeInstanceOf(Map);
    const names = unpackIpc(
      packIpc(
        new Map([
          ['01', 1],
          ['4294967295', 2],
          ['b', 3],
        ]),
      ),
    );
    expect(names).not.toBeInstanceOf(Map);
    expect(Object.keys(names as object)).toEqual(['01', '4294967295', 'b']);
    const intKeys = unpackIpc(
      packIpc(
        new Map<unknown, unknown>([
          [1, 'a'],
          ['x', 'b'],
        ]),
      ),
    ) as Map<unknown, unknown>;
    expect([...intKeys.entries()]).toEqual([
      [1, 'a'],
      ['x', 'b'],
    ]);
  });

  it('keeps the last value of a duplicate key at its first position, as a Python dict does', () => {
    expect(Object.entries(unpackIpc(hex('83 a1 61 01 a1 62 02 a1 61 03')) as object)).toEqual([
      ['a', 3],
      ['b', 2],
    ]);
  });

  it('makes "__proto__" an own key and never touches prototypes', () => {
    const v = unpackNetwork(hex('82 a9 5f5f70726f746f5f5f 81 a1 78 01 a1 61 02')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(Object.getOwnPropertyDescriptor(v, '__proto__')?.value).toEqual({ x: 1 });
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('decodes many distinct short keys correctly (the key cache only saves work)', () => {
    const rand = prng(7);
    for (let round = 0; round < 20; round++) {
      const m = new Map<string, number>();
      for (let i = 0; i < 500; i++) {
        const len = 1 + Math.floor(rand() * 15);
        const key = Array.from({ length: len }, () => String.fromCharCode(97 + Math.floor(rand() * 3))).join(
          '',
        );
        m.set(key, i);
      }
      const v = unpackIpc(packIpc(m)) as Record<string, number> | Map<string, number>;
      const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
      expect(entries).toEqual([...m.entries()]);
    }
  });

  it('decodes ext 78 and ext 79', () => {
    const dt = unpackIpc(hex('c7 18 4e 3230323531313232543130 3a34323a34332e343933383732')) as SaltDatetime;
    expect(dt.toISOString()).toBe('2025-11-22T10:42:43.493872');
    expect(unpackNetwork(hex('c7 0a 4f 92 a7 4e4f545f534554 c0'))).toEqual(new SaltConstant('NOT_SET', null));
  });

  it('copies bytes out of the input', () => {
    const input = packIpc({ b: Buffer.from([1, 2, 3]) });
    const v = unpackIpc(input) as { b: Buffer };
    input.fill(0);
    expect(v.b).toEqual(Buffer.from([1, 2, 3]));
  });

  it('accepts plain Uint8Arrays and views with an offset', () => {
    const inner = packIpc({ a: 1 });
    const outer = new Uint8Array(inner.length + 3);
    outer.set(inner, 3);
    expect(unpackIpc(outer.subarray(3))).toEqual({ a: 1 });
  });
});
