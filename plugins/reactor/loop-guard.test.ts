import { describe, expect, it } from 'vitest';
import { LoopGuard } from './loop-guard.js';

describe('LoopGuard', () => {
  it('skips its own traces, user Reactor, and the events of the jobs it started', () => {
    const g = new LoopGuard();
    g.remember('20240101000000000001');
    expect(g.ignoreReason('salt/reactor/1/start', {})).toMatch(/trace/);
    expect(g.ignoreReason('salt/run/20990101000000000000/new', { user: 'Reactor' })).toMatch(/Reactor/);
    for (const tag of [
      '20240101000000000001',
      'salt/job/20240101000000000001/new',
      'salt/job/20240101000000000001/ret/m1',
      'salt/run/20240101000000000001/ret',
      'salt/wheel/20240101000000000001/new',
    ])
      expect(g.ignoreReason(tag, {})).toMatch(/reactor job/);
    expect(g.ignoreReason('custom/tag', { jid: '20240101000000000001' })).toMatch(/reactor job/);
    expect(g.ignoreReason('salt/job/20240101000000000002/ret/m1', { user: 'root' })).toBeUndefined();
    expect(g.ignoreReason('salt/job/2024010100000000000123/ret/m1', {})).toBeUndefined();
    expect(g.ignoreReason('custom/tag', ['not', 'a', 'map'])).toBeUndefined();
  });

  it('remembers only the last `capacity` jobs', () => {
    const g = new LoopGuard({ capacity: 2 });
    g.remember('20240101000000000001');
    g.remember('20240101000000000002');
    g.remember('20240101000000000003');
    expect(g.ignoreReason('salt/job/20240101000000000001/new', {})).toBeUndefined();
    expect(g.ignoreReason('salt/job/20240101000000000003/new', {})).toBeDefined();
  });

  it('the breaker is off with burst 0 and pauses one glob only', () => {
    expect(new LoopGuard().admit('x')).toEqual({ paused: false });
    let now = 0;
    const g = new LoopGuard({ burst: 1, pauseMs: 500, now: () => now });
    expect(g.admit('a').paused).toBe(false);
    expect(g.admit('a')).toEqual({ paused: true, tripped: true, until: 500 });
    expect(g.admit('a')).toEqual({ paused: true, tripped: false, until: 500 });
    expect(g.admit('b').paused).toBe(false);
    now = 1500;
    expect(g.admit('a').paused).toBe(false);
  });
});
