import { describe, expect, it } from 'vitest';
import { FrameDecoder, splitCommand } from './frame.js';
import { checkGreeting, greeting, parseMetadata, readyCommand } from './handshake.js';

describe('ZMTP handshake', () => {
  it('greets as ZMTP 3.0 with the NULL mechanism', () => {
    const g = greeting();
    expect(g.length).toBe(64);
    expect([g[0], g[9], g[10], g[11]]).toEqual([0xff, 0x7f, 3, 0]);
    expect(g.toString('latin1', 12, 16)).toBe('NULL');
    expect(() => checkGreeting(g)).not.toThrow();
  });

  it('accepts a 3.1 peer and refuses older versions, other mechanisms and non-ZMTP bytes', () => {
    const v31 = greeting();
    v31[11] = 1;
    expect(() => checkGreeting(v31)).not.toThrow();
    const v2 = greeting();
    v2[10] = 2;
    expect(() => checkGreeting(v2)).toThrow(/version 2/);
    const curve = greeting();
    curve.write('CURVE', 12, 'latin1');
    expect(() => checkGreeting(curve)).toThrow(/CURVE/);
    expect(() => checkGreeting(Buffer.alloc(64, 0x47))).toThrow(
      expect.objectContaining({ code: 'SALT_ERR_BUS_ZMTP' }),
    );
  });

  it('round-trips READY metadata, names case-insensitively', () => {
    const [frame] = new FrameDecoder(1024).push(readyCommand({ 'Socket-Type': 'SUB', Identity: 'ü' }));
    const { name, data } = splitCommand(frame?.body as Buffer);
    expect(name).toBe('READY');
    expect([...parseMetadata(data)]).toEqual([
      ['socket-type', 'SUB'],
      ['identity', 'ü'],
    ]);
  });

  it('refuses truncated metadata', () => {
    expect(() => parseMetadata(Buffer.from([11, 65]))).toThrow(/malformed/);
    expect(() => parseMetadata(Buffer.from([1, 65, 0, 0, 0, 9, 66]))).toThrow(/malformed/);
  });
});
