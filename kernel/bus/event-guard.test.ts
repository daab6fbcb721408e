import { describe, expect, it } from 'vitest';
import { decodeEventBody, encodeEventBody } from '../serial/index.js';
import { guardFrame, isEventMap, trimEvent, VALUE_TRIMMED } from './event-guard.js';

describe('event guard', () => {
  it('passes a frame within max_event_size untouched', () => {
    const f = encodeEventBody('a/b', { x: 1 });
    expect(guardFrame(f, 1000)).toEqual({ action: 'pass' });
  });

  it("trims large values as Salt's trim_dict does, nested maps too", () => {
    const data = { small: 'ok', big: 'x'.repeat(5000), nested: { big: 'y'.repeat(3000), n: 1 } };
    const f = encodeEventBody('my/tag', data);
    const v = guardFrame(f, 1024);
    expect(v.action).toBe('trimmed');
    if (v.action !== 'trimmed') return;
    expect(v.frame.length).toBeLessThanOrEqual(1024);
    expect(decodeEventBody(v.frame)).toEqual({
      tag: 'my/tag',
      data: { small: 'ok', big: VALUE_TRIMMED, nested: { big: VALUE_TRIMMED, n: 1 } },
    });
    expect(v.trace).toMatchObject({
      tag: 'my/tag',
      size: f.length,
      max_event_size: 1024,
      reason: 'too-large',
    });
    // the caller's data is not changed
    expect(data.big.length).toBe(5000);
  });

  it('drops what cannot fit: a huge tag, data that is not a map, an undecodable frame', () => {
    const longTag = `t/${'z'.repeat(2000)}`;
    const v1 = guardFrame(encodeEventBody(longTag, {}), 1024);
    expect(v1).toMatchObject({ action: 'dropped', trace: { reason: 'tag-too-large' } });
    if (v1.action === 'dropped') expect(v1.trace.tag.length).toBeLessThan(300);
    const list = encodeEventBody('my/list', ['x'.repeat(2000)] as unknown as Record<string, unknown>);
    expect(guardFrame(list, 1024)).toMatchObject({ action: 'dropped', trace: { reason: 'not-a-map' } });
    expect(guardFrame(Buffer.alloc(2000, 0x41), 1024)).toMatchObject({
      action: 'dropped',
      trace: { reason: 'undecodable' },
    });
  });

  it('gives up when many small values still do not fit', () => {
    const data: Record<string, unknown> = {};
    for (let i = 0; i < 500; i++) data[`k${i}`] = i;
    expect(trimEvent('t', data, 200)).toBeUndefined();
  });

  it('knows a map', () => {
    expect(isEventMap({})).toBe(true);
    expect(isEventMap(Object.create(null))).toBe(true);
    for (const v of [[], null, 'x', 1, Buffer.from('a'), new Map()]) expect(isEventMap(v)).toBe(false);
  });
});
