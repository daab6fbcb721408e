import { describe, expect, it } from 'vitest';
import type { CheckContext } from '../../../kernel/targeting/check-minions.js';
import type { MinionData } from '../../../kernel/targeting/data-cache.js';
import { targetBounds } from './target-bounds.js';

// m2 has no cached data: the master cannot know what its grains hold
const ctx: CheckContext = {
  accepted: ['m1', 'm2', 'm3'],
  data: new Map<string, MinionData>([
    ['m1', { grains: { role: 'web' } }],
    ['m3', { grains: { role: 'db' } }],
  ]),
};
const sorted = (s: ReadonlySet<string>) => [...s].sort();
const bounds = (tgt: unknown, type: string, extra: Partial<CheckContext> = {}) => {
  const b = targetBounds(tgt, type, { ...ctx, ...extra });
  return { certain: sorted(b.certain), possible: sorted(b.possible) };
};

describe('targetBounds', () => {
  it('id targets are exact', () => {
    expect(bounds('m*', 'glob')).toEqual({ certain: ['m1', 'm2', 'm3'], possible: ['m1', 'm2', 'm3'] });
    expect(bounds('m1,m3', 'list')).toEqual({ certain: ['m1', 'm3'], possible: ['m1', 'm3'] });
  });

  it('a minion with no cached data is possible, never certain, for a data target', () => {
    expect(bounds('role:web', 'grain')).toEqual({ certain: ['m1'], possible: ['m1', 'm2'] });
    expect(bounds('G@role:web', 'compound')).toEqual({ certain: ['m1'], possible: ['m1', 'm2'] });
  });

  it('`not` cannot drop a minion whose data is unknown (the issue 27 item 10 escape)', () => {
    // checkMinions expects only m1 here; m2 matches on its own side
    expect(bounds('not G@nosuchgrain:x and not m3', 'compound')).toEqual({
      certain: ['m1'],
      possible: ['m1', 'm2'],
    });
    expect(bounds('m1 or ( m2 and not G@role:db )', 'compound')).toEqual({
      certain: ['m1'],
      possible: ['m1', 'm2'],
    });
  });

  it('with the data cache off, a data target is possible on every minion and certain on none', () => {
    expect(bounds('role:web', 'grain', { cacheEnabled: false })).toEqual({
      certain: [],
      possible: ['m1', 'm2', 'm3'],
    });
  });

  it('nodegroups are bounded as their compound target', () => {
    expect(bounds('webs', 'nodegroup', { nodegroups: { webs: 'not G@role:db' } })).toEqual({
      certain: ['m1'],
      possible: ['m1', 'm2'],
    });
  });
});
