import { describe, expect, it } from 'vitest';
import { JidQueue } from './jid-queue.js';

describe('JidQueue', () => {
  it('refuses a jid it has seen and forgets the oldest past its bound', () => {
    const q = new JidQueue(2);
    expect(q.add('1')).toBe(true);
    expect(q.add('1')).toBe(false);
    expect(q.add('2')).toBe(true);
    expect(q.add('3')).toBe(true);
    expect(q.add('1')).toBe(true);
    expect(q.add('3')).toBe(false);
  });
});
