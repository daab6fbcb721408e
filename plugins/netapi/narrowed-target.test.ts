import { describe, expect, it } from 'vitest';
import { matchesTarget } from '../../kernel/targeting/match.js';
import { narrowedTarget } from './narrowed-target.js';

describe('narrowedTarget', () => {
  it('id targets become the list of authorised ids', () => {
    expect(narrowedTarget('m*', 'glob', ['m1', 'm2'])).toEqual({ tgt: ['m1', 'm2'], tgtType: 'list' });
    expect(narrowedTarget('m.', 'pcre', ['m1'])).toEqual({ tgt: ['m1'], tgtType: 'list' });
    expect(narrowedTarget('x', 'nodegroup', ['m1'])).toEqual({ tgt: ['m1'], tgtType: 'list' });
    expect(narrowedTarget('m*', 'glob', [])).toEqual({ tgt: [], tgtType: 'list' });
  });

  it('data targets keep their own test, inside the list', () => {
    expect(narrowedTarget('not G@nosuchgrain:x and not m3', 'compound', ['m1'])).toEqual({
      tgt: 'L@m1 and ( not G@nosuchgrain:x and not m3 )',
      tgtType: 'compound',
    });
    expect(narrowedTarget('role:web', 'grain', ['m1', 'm2'])).toEqual({
      tgt: 'L@m1,m2 and ( G@role:web )',
      tgtType: 'compound',
    });
    // a value with a space cannot be a compound word: the list alone
    expect(narrowedTarget('os:Red Hat', 'grain', ['m1'])).toEqual({ tgt: ['m1'], tgtType: 'list' });
  });

  it('a minion outside the list never matches the narrowed target, whatever its grains', () => {
    const n = narrowedTarget('not G@nosuchgrain:x and not m3', 'compound', ['m1']);
    const grains = { id: 'x' };
    expect(matchesTarget('m1', n.tgt, n.tgtType, { grains })).toBe(true);
    expect(matchesTarget('m2', n.tgt, n.tgtType, { grains })).toBe(false);
    expect(matchesTarget('m3', n.tgt, n.tgtType, { grains })).toBe(false);
    const g = narrowedTarget('role:web', 'grain', ['m1', 'm2']);
    expect(matchesTarget('m2', g.tgt, g.tgtType, { grains: { role: 'db' } })).toBe(false);
    expect(matchesTarget('m2', g.tgt, g.tgtType, { grains: { role: 'web' } })).toBe(true);
  });
});
