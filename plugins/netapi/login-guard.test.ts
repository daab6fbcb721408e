import { describe, expect, it } from 'vitest';
import { LoginGuard } from './login-guard.js';

function guard(free = 3, max = 8, window = 60) {
  const clock = { t: 1_000_000 };
  const g = new LoginGuard(
    { freeFailures: free, maxDelaySeconds: max, windowSeconds: window },
    () => clock.t,
  );
  const attempt = async (addr: string, user: string, ok = false) => {
    const wait = await g.begin(addr, user);
    if (wait === 0) g.end(addr, user, ok);
    return wait;
  };
  return { g, clock, attempt };
}

/** Whether `p` has settled once pending callbacks have run. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  void p.then(() => {
    done = true;
  });
  await new Promise((r) => setImmediate(r));
  return done;
}

describe('LoginGuard', () => {
  it('lets the free failures through, then bars for 1, 2, 4, ... s up to the maximum', async () => {
    const { clock, attempt } = guard();
    for (let i = 0; i < 4; i++) expect(await attempt('a', 'u')).toBe(0);
    const bars: number[] = [];
    for (let i = 0; i < 6; i++) {
      const wait = await attempt('a', 'u'); // barred: refused, not counted
      bars.push(wait);
      clock.t += wait * 1000;
      expect(await attempt('a', 'u')).toBe(0);
    }
    expect(bars).toEqual([1, 2, 4, 8, 8, 8]);
  });

  it('bars a username whatever the address, and an address whatever the username', async () => {
    const { g, attempt } = guard();
    for (let i = 0; i < 4; i++) await attempt(`10.0.0.${i}`, 'admin');
    expect(await g.begin('10.9.9.9', 'admin')).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) await attempt('10.1.1.1', `user${i}`);
    expect(await g.begin('10.1.1.1', 'fresh-name')).toBeGreaterThan(0);
    expect(await g.begin('10.2.2.2', 'other')).toBe(0);
  });

  it('parallel guesses wait for those in flight, then meet the bar their failures set', async () => {
    const { g } = guard();
    for (let i = 0; i < 3; i++) expect(await g.begin('a', `u${i}`)).toBe(0);
    const fourth = g.begin('a', 'u3');
    expect(await settled(fourth)).toBe(false);
    for (let i = 0; i < 3; i++) g.end('a', `u${i}`, false);
    expect(await fourth).toBe(0); // the free ones are used up: one at a time
    const fifth = g.begin('a', 'u4');
    expect(await settled(fifth)).toBe(false);
    g.end('a', 'u3', false);
    expect(await fifth).toBe(1);
  });

  it('parallel correct logins all go through, a few at a time', async () => {
    const { g } = guard();
    const logins = Array.from({ length: 50 }, async () => {
      const wait = await g.begin('ci', 'bot');
      if (wait === 0) g.end('ci', 'bot', true);
      return wait;
    });
    expect(await Promise.all(logins)).toEqual(new Array(50).fill(0));
  });

  it('a success clears the username, not the address; the window forgets', async () => {
    const { g, clock, attempt } = guard();
    for (let i = 0; i < 3; i++) await attempt('a', 'u');
    expect(await attempt('b', 'u', true)).toBe(0);
    expect(await attempt('c', 'u')).toBe(0); // u starts over
    expect(await attempt('a', 'v')).toBe(0); // a's 4th failure: barred now
    expect(await g.begin('a', 'w')).toBe(1);
    clock.t += 61_000;
    expect(await attempt('a', 'w')).toBe(0);
    expect(await attempt('a', 'w')).toBe(0);
  });
});
