import { describe, expect, it } from 'vitest';
import { newEffects } from './context.js';
import { handleMinionEvent, validMinionTag } from './minion-event.js';

describe('_minion_event', () => {
  it("refuses the master's own namespaces, and another minion's progress", () => {
    expect(validMinionTag('myco/deploy/done', 'm1')).toBe(true);
    expect(validMinionTag('salt/minion/m1/start', 'm1')).toBe(true);
    for (const tag of [
      'salt/job/20261122133100000000/ret/m2',
      'salt/auth',
      'salt/key',
      'salt/run/1/new',
      'salt/wheel/1/ret',
    ]) {
      expect(validMinionTag(tag, 'm1')).toBe(false);
    }
    expect(validMinionTag('salt/job/20261122133100000000/prog/m1/0', 'm1')).toBe(true);
    expect(validMinionTag('salt/job/20261122133100000000/prog/m2/0', 'm1')).toBe(false);
  });

  it('refuses tags the bus cannot frame: empty, or holding its \\n\\n separator', () => {
    expect(validMinionTag('', 'm1')).toBe(false);
    expect(validMinionTag('myco/a\n\nb', 'm1')).toBe(false);
    const effects = newEffects();
    handleMinionEvent({ id: 'm1', cmd: '_minion_event', tag: '', data: {} }, effects);
    handleMinionEvent({ id: 'm1', cmd: '_minion_event', events: [{ tag: 'x\n\ny', data: {} }] }, effects);
    expect(effects.events.map((e) => e.tag)).not.toContain('');
    expect(effects.events.some((e) => e.tag.includes('\n\n'))).toBe(false);
  });

  it('fires a single event with the load as data, and a batch with each event data; forged tags are logged', () => {
    const effects = newEffects();
    const warned: string[] = [];
    handleMinionEvent(
      { id: 'm1', cmd: '_minion_event', pretag: null, tag: 'myco/a', data: { x: 1 } },
      effects,
    );
    handleMinionEvent(
      {
        id: 'm1',
        cmd: '_minion_event',
        events: [
          { tag: 'myco/b', data: { y: 2 } },
          { tag: 'salt/job/20261122133100000000/ret/m2', data: { return: 'forged' } },
        ],
      },
      effects,
      (m) => warned.push(m),
    );
    handleMinionEvent({ id: 'm1', cmd: '_minion_event', tag: 'salt/auth', data: {} }, effects, (m) =>
      warned.push(m),
    );
    expect(effects.events.map((e) => e.tag)).toEqual([
      'myco/a',
      'myco/b',
      'tsalt/bus/dropped',
      'tsalt/bus/dropped',
    ]);
    expect(effects.events[0]!.data).toMatchObject({ id: 'm1', data: { x: 1 } });
    expect(effects.events[1]!.data).toEqual({ y: 2 });
    expect(effects.events[3]!.data).toEqual({
      tag: 'salt/auth',
      size: 0,
      reason: 'forbidden-tag',
      minion: 'm1',
    });
    expect(warned).toEqual([
      'Filtering blacklisted event tag salt/job/20261122133100000000/ret/m2 from minion m1',
      'Filtering blacklisted event tag salt/auth from minion m1',
    ]);
  });

  it('refuses data that is not a map, with a trace event; an event without data is its own data', () => {
    const effects = newEffects();
    const warned: string[] = [];
    handleMinionEvent(
      {
        id: 'm1',
        events: [
          { tag: 'myco/list', data: [1, 2] },
          { tag: 'myco/bare', x: 1 },
        ],
      },
      effects,
      (m) => warned.push(m),
    );
    expect(effects.events).toEqual([
      { tag: 'tsalt/bus/dropped', data: { tag: 'myco/list', size: 0, reason: 'not-a-map', minion: 'm1' } },
      { tag: 'myco/bare', data: { tag: 'myco/bare', x: 1 } },
    ]);
    expect(warned).toEqual(['Refusing event myco/list from minion m1: its data is not a map']);
  });
});
