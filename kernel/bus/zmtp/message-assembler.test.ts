import { describe, expect, it } from 'vitest';
import { MAX_PARTS, MessageAssembler, PART_OVERHEAD_BYTES } from './message-assembler.js';

const part = (body: string, more: boolean) => ({ command: false, more, body: Buffer.from(body) });

describe('MessageAssembler', () => {
  it('hands over whole messages and starts afresh after each', () => {
    const m = new MessageAssembler(1024);
    expect(m.add(part('', true))).toBeUndefined();
    expect(m.add(part('a', false))?.map(String)).toEqual(['', 'a']);
    expect(m.add(part('b', false))?.map(String)).toEqual(['b']);
  });

  it('counts empty parts against the size and caps the number of parts', () => {
    const bySize = new MessageAssembler(3 * PART_OVERHEAD_BYTES);
    for (let i = 0; i < 3; i++) bySize.add(part('', true));
    expect(() => bySize.add(part('', true))).toThrow(/larger than the limit/);
    const byCount = new MessageAssembler(1 << 30);
    for (let i = 0; i < MAX_PARTS; i++) byCount.add(part('', true));
    expect(() => byCount.add(part('', false))).toThrow(
      expect.objectContaining({
        code: 'SALT_ERR_BUS_ZMTP',
        message: expect.stringMatching(/more than 64 parts/),
      }),
    );
  });
});

describe('MessageAssembler with a prefix', () => {
  it('puts the prefix first in every message and counts it as a part, not as bytes', () => {
    const id = Buffer.from([0, 1, 2, 3, 4]);
    const m = new MessageAssembler(PART_OVERHEAD_BYTES, id);
    expect(m.add(part('', false))).toEqual([id, Buffer.alloc(0)]);
    expect(m.add(part('', false))).toEqual([id, Buffer.alloc(0)]);
    const capped = new MessageAssembler(1 << 30, id);
    for (let i = 0; i < MAX_PARTS - 1; i++) capped.add(part('', true));
    expect(() => capped.add(part('', false))).toThrow(/more than 64 parts/);
  });
});
