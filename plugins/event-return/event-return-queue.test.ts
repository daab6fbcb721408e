import { describe, expect, it } from 'vitest';
import type { SaltEvent } from '../../kernel/jobs/types.js';
import { EventReturnQueue, eventTagSelected } from './event-return-queue.js';

const quiet = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
const ev = (tag: string): SaltEvent => ({ tag, data: {} });

describe('event_return queue', () => {
  it("selects tags with Salt's white and black lists", () => {
    expect(eventTagSelected('salt/job/1/new', [], [])).toBe(true);
    expect(eventTagSelected('salt/job/1/new', ['salt/job/*'], [])).toBe(true);
    expect(eventTagSelected('salt/auth', ['salt/job/*'], [])).toBe(false);
    expect(eventTagSelected('salt/job/1/new', [], ['salt/job/*/new'])).toBe(false);
  });

  it('sends full batches at once and a partial one after the quiet time', async () => {
    const got: string[][] = [];
    const q = new EventReturnQueue({
      sinks: [{ name: 's', send: async (b) => void got.push(b.map((e) => e.tag)) }],
      batchSize: 3,
      whitelist: [],
      blacklist: ['skip/*'],
      flushMs: 50,
      log: quiet,
    });
    for (const t of ['a', 'skip/me', 'b', 'c']) q.push(ev(t));
    await new Promise((r) => setTimeout(r, 10));
    q.push(ev('d'));
    expect(got).toEqual([['a', 'b', 'c']]);
    await new Promise((r) => setTimeout(r, 100));
    expect(got).toEqual([['a', 'b', 'c'], ['d']]);
  });

  it('keeps a failing sink its events for the next flush, and never holds back the others', async () => {
    let fail = true;
    const good: string[] = [];
    const bad: string[] = [];
    const errors: string[] = [];
    const q = new EventReturnQueue({
      sinks: [
        { name: 'good', send: async (b) => void good.push(...b.map((e) => e.tag)) },
        {
          name: 'bad',
          send: async (b) => {
            if (fail) throw new Error('store down');
            bad.push(...b.map((e) => e.tag));
          },
        },
      ],
      batchSize: 0,
      whitelist: [],
      blacklist: [],
      log: { ...quiet, error: (_o: object | string, msg?: string) => void errors.push(msg ?? '') },
    });
    q.push(ev('one'));
    await q.flush();
    expect(good).toEqual(['one']);
    expect(bad).toEqual([]);
    expect(errors[0]).toContain('event_return bad failed: store down');
    fail = false;
    q.push(ev('two'));
    await q.flush();
    expect(bad).toEqual(['one', 'two']);
    expect(good).toEqual(['one', 'two']);
  });
});
