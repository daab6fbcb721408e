import { describe, expect, it } from 'vitest';
import { SaltError } from '../errors.js';
import { packIpc } from './encoder.js';
import { encodeEventBody, encodeIpcMessage, type IpcMessage } from './event-frame.js';
import { IpcStreamDecoder } from './ipc-stream.js';
import { msgpackValueEnd } from './msgpack-scan.js';

const messages = [
  encodeIpcMessage(encodeEventBody('salt/auth', { act: 'pend', pub: 'k'.repeat(500) })),
  encodeIpcMessage(encodeEventBody('x', {})),
  encodeIpcMessage({ load: { big: Buffer.alloc(70_000, 1), list: [1, 2, new Array(20).fill('s')] } }),
  encodeIpcMessage(encodeEventBody('t', { n: -(2 ** 40), f: 1.5, m: new Map([[1, 2]]) })),
];
const stream = Buffer.concat(messages);

function feed(sizes: (i: number) => number, options?: { maxMessageSize?: number }): IpcMessage[] {
  const reader = new IpcStreamDecoder(options);
  const got: IpcMessage[] = [];
  let off = 0;
  for (let i = 0; off < stream.length; i++) {
    const n = Math.max(1, sizes(i));
    reader.push(stream.subarray(off, off + n), (m) => got.push(m));
    off += n;
  }
  expect(reader.pending).toBe(0);
  return got;
}

describe('msgpackValueEnd', () => {
  it('finds the end of each message, or how many bytes are needed', () => {
    let off = 0;
    for (const m of messages) {
      expect(msgpackValueEnd(stream, off)).toBe(off + m.length);
      off += m.length;
    }
    const big = messages[2] as Buffer;
    expect(msgpackValueEnd(big.subarray(0, 5))).toBeLessThan(0);
    // Once the bin 32 header is in, the whole length is known.
    const bin = big.indexOf(0xc6);
    expect(-msgpackValueEnd(big.subarray(0, bin + 5))).toBeGreaterThan(70_000);
    expect(msgpackValueEnd(Buffer.alloc(0))).toBe(-1);
  });

  it('walks every format without decoding', () => {
    const v = [null, true, 1, -1, 200, -200, 70000, -70000, 2 ** 40, -(2 ** 40), 1.5, 's', 'x'.repeat(40)];
    const all = packIpc([
      ...v,
      'y'.repeat(300),
      'z'.repeat(70000),
      Buffer.alloc(3),
      Buffer.alloc(300),
      Buffer.alloc(70000),
      new Date(),
      {},
      new Map([[1, 2]]),
    ]);
    expect(msgpackValueEnd(all)).toBe(all.length);
    for (const ext of [
      'd401ff',
      'd501ffff',
      'd601ffffffff',
      `d701${'ff'.repeat(8)}`,
      `d801${'ff'.repeat(16)}`,
      'c70101ff',
      'c8000101ff',
      'c90000000101ff',
      'ca3fc00000',
    ]) {
      const b = Buffer.from(ext, 'hex');
      expect(msgpackValueEnd(b)).toBe(b.length);
      expect(msgpackValueEnd(b.subarray(0, b.length - 1))).toBeLessThan(0);
    }
  });

  it('throws SALT_ERR_BUS_DECODE on 0xc1 and handles absurd counts without allocating', () => {
    expect(() => msgpackValueEnd(Buffer.from([0x92, 0x01, 0xc1]))).toThrow(SaltError);
    expect(msgpackValueEnd(Buffer.from('ddffffffff01', 'hex'))).toBeLessThan(0);
    expect(msgpackValueEnd(Buffer.from('dbffffffff', 'hex'))).toBe(-(5 + 0xffffffff));
  });
});

describe('IpcStreamDecoder', () => {
  it('delivers the same messages whatever the chunking', () => {
    const expected = messages.map((m) => m.toString('hex'));
    for (const sizes of [
      () => 1,
      () => 3,
      (i: number) => (i * 37) % 1000,
      () => 65536,
      () => stream.length,
    ]) {
      const got = feed(sizes);
      expect(
        got.map((m) => encodeIpcMessage(m.body, m.head as Record<string, unknown>).toString('hex')),
      ).toEqual(expected);
    }
  });

  it('throws SALT_ERR_BUS_DECODE for a corrupt stream, after delivering the messages before it', () => {
    const reader = new IpcStreamDecoder();
    const got: IpcMessage[] = [];
    const bad = Buffer.concat([messages[1] as Buffer, Buffer.from([0xc1]), messages[1] as Buffer]);
    expect(() => reader.push(bad, (m) => got.push(m))).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_DECODE' }),
    );
    expect(got).toHaveLength(1);
    expect(() => reader.push(packIpc([1]), () => undefined)).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_DECODE' }),
    );
  });

  it('refuses messages larger than maxMessageSize', () => {
    expect(() => feed(() => 1000, { maxMessageSize: 1000 })).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_DECODE' }),
    );
    const reader = new IpcStreamDecoder({ maxMessageSize: 100 });
    expect(() => reader.push(Buffer.from('c6ffffffff', 'hex'), () => undefined)).toThrow(/larger than 100/);
  });

  it('keeps the rest of a chunk when a handler throws', () => {
    const reader = new IpcStreamDecoder();
    const got: IpcMessage[] = [];
    let first = true;
    const handler = (m: IpcMessage) => {
      if (first) {
        first = false;
        throw new Error('handler failed');
      }
      got.push(m);
    };
    expect(() => reader.push(Buffer.concat([messages[1] as Buffer, messages[3] as Buffer]), handler)).toThrow(
      'handler failed',
    );
    reader.push(Buffer.alloc(0), handler);
    reader.push(messages[1] as Buffer, handler);
    expect(got).toHaveLength(2);
  });
});
