import { describe, expect, it } from 'vitest';
import { encodeEventBody } from '../serial/index.js';
import { GapTracker, readSequence, SubscriptionCounters } from './bus-sequence.js';

const sub = (p: string) => Buffer.concat([Buffer.from([1]), Buffer.from(p)]);
const unsub = (p: string) => Buffer.concat([Buffer.from([0]), Buffer.from(p)]);

describe('bus sequence numbers', () => {
  it('numbers each frame per subscribed prefix it matches', () => {
    const c = new SubscriptionCounters();
    c.onSubscription(sub('salt/job/'));
    c.onSubscription(sub(''));
    c.onSubscription(sub('salt/job/'));
    expect(readSequence(c.stamp(encodeEventBody('salt/job/1/new', {})))).toEqual({ 'salt/job/': 1, '': 1 });
    expect(readSequence(c.stamp(encodeEventBody('other', {})))).toEqual({ '': 2 });
    expect(c.list()).toEqual([
      { prefix: 'salt/job/', subscribers: 2, events: 1 },
      { prefix: '', subscribers: 1, events: 2 },
    ]);
    c.onSubscription(unsub(''));
    expect(c.stamp(encodeEventBody('other', {})).length).toBe(0);
    expect(readSequence(Buffer.alloc(0))).toBeUndefined();
  });

  it('counts the gaps a subscriber sees, once per event even with overlapping prefixes', () => {
    const g = new GapTracker(['salt/', 'salt/job/', 'my/']);
    expect(g.observe({ 'salt/': 1, 'salt/job/': 1 })).toBe(0);
    expect(g.observe({ 'salt/': 5, 'salt/job/': 3 })).toBe(3); // only the widest prefix counts
    expect(g.observe({ 'my/': 10 })).toBe(0); // first number seen for a prefix: a baseline
    expect(g.observe({ 'my/': 12 })).toBe(1);
    expect(g.observe(undefined)).toBe(0);
    expect(g.observe({ 'my/': 1 })).toBe(0); // publisher restarted
    expect(g.observe({ 'my/': 2 })).toBe(0);
    expect(g.observe({ 'my/': 4 }, false)).toBe(1); // numbered but left out: a gap, not received
    expect({ received: g.received, missed: g.missed }).toEqual({ received: 7, missed: 5 });
  });
});
