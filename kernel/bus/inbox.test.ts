import { describe, expect, it } from 'vitest';
import { Inbox } from './inbox.js';

describe('Inbox', () => {
  it('hands messages over in order, to a reader that waits or comes later', async () => {
    const box = new Inbox<number>(10);
    const waiting = box.take();
    box.push(1);
    box.push(2);
    box.push(3);
    expect(await waiting).toBe(1);
    expect(await box.take()).toBe(2);
    expect(await box.take()).toBe(3);
    expect(box.size).toBe(0);
  });

  it('drops what finds it full, and counts it', async () => {
    const box = new Inbox<number>(2);
    for (let i = 0; i < 5; i++) box.push(i);
    expect(box.dropped).toBe(3);
    expect([await box.take(), await box.take()]).toEqual([0, 1]);
  });

  it('stays in order across many messages (its head is compacted)', async () => {
    const box = new Inbox<number>(10_000);
    let next = 0;
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < 3000; i++) box.push(round * 3000 + i);
      for (let i = 0; i < 2500; i++) expect(await box.take()).toBe(next++);
    }
    expect(box.size).toBe(2500);
  });

  it('times a read out with undefined, and ends reads when closed', async () => {
    const box = new Inbox<string>(5);
    expect(await box.take(10)).toBeUndefined();
    const waiting = box.take();
    await expect(box.take()).rejects.toThrow(/already waiting/);
    box.close();
    expect(await waiting).toBeUndefined();
    box.push('late');
    expect(await box.take()).toBeUndefined();
    expect(box.closed).toBe(true);
  });
});
