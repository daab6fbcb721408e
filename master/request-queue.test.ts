import { describe, expect, it } from 'vitest';
import { packNetwork } from '../kernel/serial/index.js';
import { RequestQueue } from './request-queue.js';

const minion = (id: string): Buffer => packNetwork({ enc: 'aes', load: Buffer.from('x'), id, version: 3 });
const user = (): Buffer => packNetwork({ enc: 'clear', load: { cmd: 'publish', fun: 'test.ping' } });

/** A pool with `free` slots; `release()` frees one. */
function pool(free: number) {
  let slots = free;
  let waiter: (() => void) | undefined;
  return {
    whenAvailable: () => (slots > 0 ? undefined : new Promise<void>((r) => (waiter = r))),
    take: () => slots--,
    release: () => {
      slots++;
      waiter?.();
      waiter = undefined;
    },
  };
}

describe('RequestQueue', () => {
  it('queues minion requests past the cap and lets user commands go ahead', async () => {
    const p = pool(1);
    const order: string[] = [];
    const q = new RequestQueue(p, (_e, _payload, id) => {
      if (id !== undefined) p.take();
      order.push(id ?? 'user');
    });
    expect(q.offer([], minion('m1'), 'm1')).toBeUndefined();
    expect(q.offer([], minion('m2'), 'm2')).toBeUndefined();
    expect(q.offer([], minion('m3'), 'm3')).toBeUndefined();
    expect(q.offer([], user(), undefined)).toBeUndefined();
    expect(order).toEqual(['m1', 'user']);
    expect(q.backlog).toBe(2);
    p.release();
    await new Promise((r) => setImmediate(r));
    p.release();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['m1', 'user', 'm2', 'm3']);
    expect(q.backlog).toBe(0);
  });

  it('asks the reader to pause past maxBacklog and resumes it at half', async () => {
    const p = pool(0);
    const q = new RequestQueue(p, () => p.take(), { maxBacklog: 4 });
    for (let i = 0; i < 3; i++) expect(q.offer([], minion(`m${i}`), `m${i}`)).toBeUndefined();
    const pause = q.offer([], minion('m3'), 'm3');
    expect(pause).toBeInstanceOf(Promise);
    let resumed = false;
    void pause?.then(() => (resumed = true));
    p.release();
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(false);
    p.release();
    await new Promise((r) => setImmediate(r));
    p.release();
    await new Promise((r) => setImmediate(r));
    expect(resumed).toBe(true);
    q.close();
    expect(q.backlog).toBe(0);
  });

  it('gives every caller told to pause the same pause, so none is left waiting', async () => {
    const p = pool(0);
    const q = new RequestQueue(p, () => p.take(), { maxBacklog: 2 });
    q.offer([], minion('m0'), 'm0');
    const first = q.offer([], minion('m1'), 'm1');
    const second = q.offer([], minion('m2'), 'm2');
    expect(first).toBeInstanceOf(Promise);
    expect(second).toBe(first);
    let resumed = false;
    void first?.then(() => (resumed = true));
    for (let i = 0; i < 3; i++) {
      p.release();
      await new Promise((r) => setImmediate(r));
    }
    expect(resumed).toBe(true);
  });
});
