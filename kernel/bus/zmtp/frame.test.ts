import { describe, expect, it } from 'vitest';
import { prng } from '../../../test/support/prng.js';
import { encodeCommand, encodeMessage, FrameDecoder, frameHeader, splitCommand, unpinned } from './frame.js';

describe('ZMTP framing', () => {
  it('writes short and long headers', () => {
    expect([...frameHeader(5, 0)]).toEqual([0, 5]);
    expect([...frameHeader(255, 1)]).toEqual([1, 255]);
    expect([...frameHeader(256, 0)]).toEqual([2, 0, 0, 0, 0, 0, 0, 1, 0]);
  });

  it('round-trips a multi-part message fed one byte at a time', () => {
    const long = Buffer.alloc(300, 7);
    const wire = encodeMessage([Buffer.from('topic'), long, Buffer.alloc(0)]);
    const decoder = new FrameDecoder(1024);
    const frames = [];
    for (const byte of wire) frames.push(...decoder.push(Buffer.from([byte])));
    expect(frames.map((f) => [f.more, f.command, f.body.length])).toEqual([
      [true, false, 5],
      [true, false, 300],
      [false, false, 0],
    ]);
    expect(frames[1]?.body.equals(long)).toBe(true);
    expect(decoder.buffered).toBe(0);
  });

  it('with skipOversized, drops a frame over the limit as it comes and yields it flagged', () => {
    const wire = Buffer.concat([
      encodeMessage([Buffer.alloc(5000, 1), Buffer.from('next')]),
      encodeCommand('PING', Buffer.from([0, 1])),
    ]);
    for (const step of [1, 7, 4096, wire.length]) {
      const decoder = new FrameDecoder(1024);
      decoder.skipOversized = true;
      const frames = [];
      for (let at = 0; at < wire.length; at += step)
        frames.push(...decoder.push(wire.subarray(at, at + step)));
      expect(frames.map((f) => [f.command, f.more, f.body.toString(), f.oversized])).toEqual([
        [false, true, '', 5000],
        [false, false, 'next', undefined],
        [true, false, '\x04PING\x00\x01', undefined],
      ]);
      expect(decoder.buffered).toBe(0);
    }
    // commands are never skipped
    const decoder = new FrameDecoder(1 << 20);
    decoder.skipOversized = true;
    expect(() => decoder.push(encodeCommand('PING', Buffer.alloc(9000)))).toThrow(/limit/);
  });

  it('decodes several frames from one chunk and keeps a partial tail', () => {
    const wire = Buffer.concat([
      encodeCommand('PING', Buffer.from([0, 1])),
      encodeMessage([Buffer.from('ab')]),
    ]);
    const decoder = new FrameDecoder(64);
    const frames = decoder.push(wire.subarray(0, wire.length - 1));
    expect(frames).toHaveLength(1);
    expect(frames[0]?.command).toBe(true);
    expect(splitCommand(frames[0]?.body as Buffer).name).toBe('PING');
    expect(decoder.buffered).toBe(3);
    expect(decoder.push(wire.subarray(wire.length - 1))[0]?.body.toString()).toBe('ab');
  });

  it('refuses frames over the limit, reserved flags and nameless commands', () => {
    expect(() => new FrameDecoder(10).push(encodeMessage([Buffer.alloc(11)]))).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_ZMTP' }),
    );
    // a long size with the high half set is over any limit, without reading the body
    expect(() => new FrameDecoder(10).push(Buffer.from([2, 0, 0, 0, 1, 0, 0, 0, 0]))).toThrow(/limit of 10/);
    expect(() => new FrameDecoder(10).push(Buffer.from([0x10, 0]))).toThrow(/reserved/);
    expect(() => splitCommand(Buffer.from([0]))).toThrow(/without a name/);
    expect(() => splitCommand(Buffer.from([5, 65]))).toThrow(/without a name/);
  });
});

describe('FrameDecoder on arbitrary bytes', () => {
  it('either yields frames or throws SALT_ERR_BUS_ZMTP, never anything else', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = prng(seed);
      const decoder = new FrameDecoder(512);
      try {
        for (let i = 0; i < 20; i++) {
          const chunk = Buffer.alloc(Math.floor(rand() * 40));
          // mostly valid-looking flag bytes, so that decoding gets past the first byte
          for (let j = 0; j < chunk.length; j++)
            chunk[j] = rand() < 0.5 ? Math.floor(rand() * 8) : Math.floor(rand() * 256);
          for (const f of decoder.push(chunk)) expect(f.body.length).toBeLessThanOrEqual(512);
        }
      } catch (err) {
        expect((err as { code?: string }).code, `seed ${seed}`).toBe('SALT_ERR_BUS_ZMTP');
      }
    }
  });

  it('copies a small slice out of a large read, and leaves a buffer that is mostly its own', () => {
    const read = Buffer.alloc(64 * 1024, 7);
    const small = read.subarray(100, 400);
    const copy = unpinned(small);
    expect(copy.equals(small)).toBe(true);
    expect(copy.buffer.byteLength).toBeLessThan(read.buffer.byteLength);
    const most = read.subarray(0, 60 * 1024);
    expect(unpinned(most)).toBe(most);
  });
});
