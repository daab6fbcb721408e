import { describe, expect, it } from 'vitest';
import { SaltError } from '../errors.js';
import { unpackIpc, unpackNetwork } from './decoder.js';
import { packIpc, packNetwork } from './encoder.js';
import { float64, NOT_SET, SaltConstant, SaltDatetime } from './salt-types.js';

const hexOf = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');
const net = (v: unknown): string => hexOf(packNetwork(v));
const ipc = (v: unknown): string => hexOf(packIpc(v));

function encodeError(fn: () => unknown): SaltError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SaltError);
    expect((err as SaltError).code).toBe('SALT_ERR_BUS_ENCODE');
    return err as SaltError;
  }
  throw new Error('expected SALT_ERR_BUS_ENCODE, nothing was thrown');
}

describe('numbers', () => {
  it('writes ints in the smallest format, uint formats for non-negative ones', () => {
    expect(net(0)).toBe('00');
    expect(net(127)).toBe('7f');
    expect(net(128)).toBe('cc80');
    expect(net(65535)).toBe('cdffff');
    expect(net(65536)).toBe('ce00010000');
    expect(net(2 ** 32)).toBe('cf0000000100000000');
    expect(net(2 ** 53 - 1)).toBe('cf001fffffffffffff');
    expect(net(2 ** 63)).toBe('cf8000000000000000');
    expect(net(-1)).toBe('ff');
    expect(net(-32)).toBe('e0');
    expect(net(-33)).toBe('d0df');
    expect(net(-129)).toBe('d1ff7f');
    expect(net(-32769)).toBe('d2ffff7fff');
    expect(net(-(2 ** 31) - 1)).toBe('d3ffffffff7fffffff');
    expect(net(-(2 ** 63))).toBe('d38000000000000000');
  });

  it('writes other numbers, -0 and integral numbers beyond 64 bits as float 64', () => {
    expect(net(1.5)).toBe('cb3ff8000000000000');
    expect(net(-0)).toBe('cb8000000000000000');
    expect(net(2 ** 64)).toBe('cb43f0000000000000');
    expect(net(-(2 ** 64))).toBe('cbc3f0000000000000');
    expect(net(Number.NaN)).toBe('cb7ff8000000000000');
    expect(net(Number.POSITIVE_INFINITY)).toBe('cb7ff0000000000000');
  });

  it('writes float64(n) as float 64 even when n is integral', () => {
    expect(net(float64(1))).toBe('cb3ff0000000000000');
    expect(ipc([float64(0), 0])).toBe('92cb000000000000000000');
  });

  it('writes bigints in the smallest int format, and as decimal text outside int64/uint64', () => {
    expect(net(5n)).toBe('05');
    expect(net(-5n)).toBe('fb');
    expect(net(2n ** 32n)).toBe('cf0000000100000000');
    expect(net(2n ** 64n - 1n)).toBe('cfffffffffffffffff');
    expect(net(-(2n ** 63n))).toBe('d38000000000000000');
    expect(net(2n ** 64n)).toBe(`b4${Buffer.from('18446744073709551616').toString('hex')}`);
    expect(net(-(2n ** 63n) - 1n)).toBe(`b4${Buffer.from('-9223372036854775809').toString('hex')}`);
  });
});

describe('text and bytes', () => {
  const header = (hex: string, n: number) => hex.slice(0, n * 2);

  it('never writes str 8 in the network form; the IPC form does', () => {
    for (const [len, netHead, ipcHead] of [
      [31, 'bf', 'bf'],
      [32, 'da0020', 'd920'],
      [255, 'da00ff', 'd9ff'],
      [256, 'da0100', 'da0100'],
      [65535, 'daffff', 'daffff'],
      [65536, 'db00010000', 'db00010000'],
    ] as const) {
      const s = 'x'.repeat(len);
      expect(header(net(s), netHead.length / 2)).toBe(netHead);
      expect(header(ipc(s), ipcHead.length / 2)).toBe(ipcHead);
      expect(unpackIpc(packIpc(s))).toBe(s);
      expect(unpackNetwork(packNetwork(s))).toBe(s);
    }
  });

  it('sizes the header by UTF-8 bytes, not by UTF-16 units', () => {
    for (const s of [
      'é'.repeat(15),
      'é'.repeat(16),
      '€'.repeat(10),
      '€'.repeat(11),
      '𝄞'.repeat(8),
      '€'.repeat(85),
      'é'.repeat(128),
    ]) {
      const bytes = Buffer.from(s);
      const n = bytes.length;
      const expected =
        n < 32
          ? (0xa0 | n).toString(16)
          : n < 256
            ? `d9${n.toString(16).padStart(2, '0')}`
            : `da${n.toString(16).padStart(4, '0')}`;
      expect(ipc(s)).toBe(expected + bytes.toString('hex'));
      expect(unpackIpc(packIpc(s))).toBe(s);
    }
  });

  it('encodes like Buffer does, lone surrogates becoming U+FFFD', () => {
    for (const s of ['a\ud800b', '\udc00', 'x\ud83d', 'ok \ud83d\udc0d', `${'y'.repeat(60)}\ud800`]) {
      expect(packIpc(s).subarray(s.length >= 32 ? 2 : 1)).toEqual(Buffer.from(s));
    }
  });

  it('writes bytes as str in the network form and as bin in the IPC form', () => {
    expect(net(Buffer.from([0xff, 1]))).toBe('a2ff01');
    expect(ipc(Buffer.from([0xff, 1]))).toBe('c402ff01');
    expect(net(new Uint8Array([1]))).toBe('a101');
    expect(ipc(new Uint8Array(300)).slice(0, 6)).toBe('c5012c');
    expect(ipc(new Uint8Array(70000)).slice(0, 10)).toBe('c600011170');
    expect(net(new Uint8Array(40)).slice(0, 6)).toBe('da0028');
    expect(ipc(new Uint8Array([1, 2]).buffer)).toBe('c4020102');
    expect(ipc(new DataView(new Uint8Array([7, 8, 9]).buffer, 1))).toBe('c4020809');
  });

  it('handles very long text', () => {
    for (const s of [`${'€'.repeat(400_000)}end`, `${'x'.repeat(1_100_000)}é`]) {
      expect(unpackIpc(packIpc({ s }))).toEqual({ s });
      expect(unpackNetwork(packNetwork([s]))).toEqual([s]);
    }
  });
});

describe('containers and Salt types', () => {
  it('leaves out object properties that are undefined; nil elsewhere', () => {
    expect(ipc({ a: 1, b: undefined })).toBe('81a16101');
    expect(ipc([undefined, null])).toBe('92c0c0');
    expect(ipc(new Map([['a', undefined]]))).toBe('81a161c0');
    const wide: Record<string, unknown> = {};
    for (let i = 0; i < 17; i++) wide[`k${i}`] = i < 15 ? i : undefined;
    const packed = packIpc(wide);
    expect(packed[0]).toBe(0x8f);
    expect(unpackIpc(packed)).toEqual(Object.fromEntries(Array.from({ length: 15 }, (_, i) => [`k${i}`, i])));
  });

  it('writes Maps with any keys, Sets as arrays, and keeps insertion order', () => {
    expect(
      ipc(
        new Map<unknown, unknown>([
          [1, 'a'],
          [Buffer.from([0]), null],
        ]),
      ),
    ).toBe('8201a161c40100c0');
    expect(ipc(new Set(['b', 'a']))).toBe('92a162a161');
    expect(ipc({ z: 1, a: 2 })).toBe('82a17a01a16102');
    expect(ipc(Object.assign(Object.create(null), { n: 1 }))).toBe('81a16e01');
  });

  it('uses array/map 16 and 32 headers', () => {
    expect(ipc(new Array(16).fill(0)).slice(0, 6)).toBe('dc0010');
    expect(ipc(new Array(70000).fill(0)).slice(0, 10)).toBe('dd00011170');
    const big = new Map(Array.from({ length: 70000 }, (_, i) => [i, 0]));
    expect(ipc(big).slice(0, 10)).toBe('df00011170');
  });

  it('writes Date and SaltDatetime as ext 78 (UTC, microseconds)', () => {
    const text = (s: string) => Buffer.from(s).toString('hex');
    expect(ipc(new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 5)))).toBe(
      `c7184e${text('20240229T23:59:59.005000')}`,
    );
    expect(net(SaltDatetime.parseIso('2025-11-22T10:42:43.493872'))).toBe(
      `c7184e${text('20251122T10:42:43.493872')}`,
    );
    encodeError(() => packIpc(new Date(Number.NaN)));
  });

  it('writes SaltConstant as ext 79 with a packIpc([name, value]) body', () => {
    expect(net(NOT_SET)).toBe('c70a4f92a74e4f545f534554c0');
    expect(ipc([new SaltConstant('C', Buffer.from([1]))])).toBe('91c7064f92a143c40101');
    expect(net(new SaltConstant('C', Buffer.from([1])))).toBe('c7064f92a143c40101');
  });

  it('uses toJSON of other objects, else their own enumerable properties', () => {
    class Point {
      constructor(
        readonly x: number,
        readonly y: number,
      ) {}
    }
    expect(ipc(new Point(1, 2))).toBe('82a17801a17902');
    encodeError(() => packIpc({ toJSON: () => 'j' })); // plain objects are maps: the function is refused
    expect(
      ipc(
        new (class {
          toJSON() {
            return [1];
          }
        })(),
      ),
    ).toBe('9101');
  });

  it('refuses functions, symbols and cycles with SALT_ERR_BUS_ENCODE', () => {
    encodeError(() => packIpc({ f: () => 1 }));
    encodeError(() => packNetwork(Symbol('s')));
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(encodeError(() => packIpc(cyclic)).message).toMatch(/deeper/);
    const arr: unknown[] = [];
    arr.push(arr);
    encodeError(() => packNetwork(arr));
    const loop: unknown[] = [];
    loop.push(new SaltConstant('LOOP', loop));
    expect(encodeError(() => packIpc(loop)).message).toMatch(/constants nested/);
    expect(ipc({ ok: 1 })).toBe('81a26f6b01'); // the encoder still works afterwards
  });
});

describe('results', () => {
  it('stay intact while later messages are packed, also across buffer growth', () => {
    const values: unknown[] = [];
    const packed: Buffer[] = [];
    for (let i = 0; i < 400; i++) {
      const size = (i * 7919) % 9000;
      const v = { i, nested: { text: 'x'.repeat(size), list: [i, { deep: 'é'.repeat(i % 50) }] }, tail: i };
      values.push(v);
      packed.push(i % 2 ? packIpc(v) : packNetwork(v));
    }
    packed.forEach((b, i) => {
      expect(unpackIpc(b)).toEqual(values[i]);
    });
  });

  it('are exact for one message far larger than the scratch buffer', () => {
    const v = {
      head: {},
      items: Array.from({ length: 1500 }, (_, i) => ({ i, s: `item ${i}`, b: Buffer.alloc(40, i) })),
    };
    expect(unpackIpc(packIpc(v))).toEqual(v);
  });
});
