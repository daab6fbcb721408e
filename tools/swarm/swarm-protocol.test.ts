import { describe, expect, it } from 'vitest';
import { defaultProcs, emptyStats, formatStats, splitRange, sumStats } from './swarm-protocol.js';

describe('swarm protocol helpers', () => {
  it('splits minions evenly over workers', () => {
    expect(splitRange(10, 3)).toEqual([
      [0, 4],
      [4, 3],
      [7, 3],
    ]);
    expect(splitRange(2, 5)).toEqual([
      [0, 1],
      [1, 1],
    ]);
    expect(splitRange(10_000, 4).map(([, c]) => c)).toEqual([2500, 2500, 2500, 2500]);
  });

  it('plans one worker per 2,500 minions', () => {
    expect(defaultProcs(1)).toBe(1);
    expect(defaultProcs(2500)).toBe(1);
    expect(defaultProcs(2501)).toBe(2);
    expect(defaultProcs(10_000)).toBe(4);
  });

  it('sums counters and prints one readable line', () => {
    const a = { ...emptyStats(), minions: 3, authenticated: 3, subscribed: 3, jobs: 6, returns: 6 };
    const b = {
      ...emptyStats(),
      minions: 2,
      authenticated: 1,
      subscribed: 1,
      errors: 2,
      reauths: 1,
      reauthsBadLoad: 1,
    };
    const s = sumStats([a, b]);
    expect(s).toMatchObject({ minions: 5, authenticated: 4, returns: 6, errors: 2 });
    expect(formatStats(s, 2)).toBe(
      '5 minions in 2 processes: 4 authenticated, 4 subscribed, 6 jobs received, 6 returns sent, 2 errors, 1 re-auths (publish 0, bad load 1, request not decrypted 0)',
    );
  });
});
