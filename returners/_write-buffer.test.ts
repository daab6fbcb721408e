import { describe, expect, it } from 'vitest';
import { silentLogger } from '../kernel/log.js';
import { WriteBuffer } from './_write-buffer.js';

function buffer(max: number, state: { down: boolean; written: number[]; refuse?: number }) {
  return new WriteBuffer<number>({
    store: 'test',
    max,
    retryMs: 10,
    log: silentLogger(),
    isDown: (err) => (err as Error).message === 'down',
    async write(n) {
      if (state.down) throw new Error('down');
      if (n === state.refuse) throw new Error('bad item');
      state.written.push(n);
    },
  });
}

describe('WriteBuffer', () => {
  it('keeps writes while down, drops the oldest past the bound, writes in order once back', async () => {
    const state = { down: true, written: [] as number[] };
    const b = buffer(3, state);
    for (const n of [1, 2, 3, 4, 5]) b.push(n);
    expect(b.size).toBe(3);
    expect(await b.flush()).toBe(false);
    state.down = false;
    expect(await b.flush()).toBe(true);
    expect(state.written).toEqual([3, 4, 5]);
    b.stop();
  });

  it('retries on a timer, and drops an item the store refuses', async () => {
    const state = { down: true, written: [] as number[], refuse: 2 };
    const b = buffer(10, state);
    for (const n of [1, 2, 3]) b.push(n);
    state.down = false;
    await new Promise((r) => setTimeout(r, 100));
    expect(state.written).toEqual([1, 3]);
    expect(b.size).toBe(0);
    b.stop();
  });
});
