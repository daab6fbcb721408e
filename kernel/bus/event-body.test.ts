import { describe, expect, it } from 'vitest';
import { decodeEventBody } from '../serial/index.js';
import { eventStamp, stampedEventBody } from './event-body.js';

describe('eventStamp', () => {
  it("formats Salt's _stamp: microseconds, no zone", () => {
    expect(eventStamp(new Date('2026-03-04T05:06:07.089Z'))).toBe('2026-03-04T05:06:07.089000');
  });

  it('stamps now', () => {
    const before = Date.now();
    const stamp = eventStamp();
    const at = Date.parse(`${stamp.slice(0, 23)}Z`);
    expect(stamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000$/);
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });
});

describe('stampedEventBody', () => {
  it('adds _stamp after the data (replacing one in place) without changing the data', () => {
    const data = { b: 1, _stamp: 'old', a: 2 };
    const ev = decodeEventBody(stampedEventBody('salt/x', data));
    expect(ev.tag).toBe('salt/x');
    expect(Object.keys(ev.data as object)).toEqual(['b', '_stamp', 'a']);
    expect((ev.data as { _stamp: string })._stamp).not.toBe('old');
    expect(data._stamp).toBe('old');
  });
});
