import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limit.js';

describe('RateLimiter', () => {
  it('allows a burst, then the rate, per key', () => {
    const clock = { t: 0 };
    const rl = new RateLimiter(2, 3, () => clock.t);
    expect([rl.take('a'), rl.take('a'), rl.take('a')]).toEqual([0, 0, 0]);
    expect(rl.take('a')).toBe(1);
    expect(rl.take('b')).toBe(0);
    clock.t = 500;
    expect(rl.take('a')).toBe(0);
    expect(rl.take('a')).toBeGreaterThan(0);
  });
  it('rate 0 disables it', () => {
    const rl = new RateLimiter(0, 1);
    for (let i = 0; i < 100; i++) expect(rl.take('x')).toBe(0);
  });
});
