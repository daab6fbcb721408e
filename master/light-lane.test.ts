import { describe, expect, it } from 'vitest';
import { LightLane } from './light-lane.js';

/** How many of `n` requests the lane keeps on the router thread. */
function kept(lane: LightLane, n: number): number {
  let here = 0;
  for (let i = 0; i < n; i++) if (lane.here()) here++;
  return here;
}

describe('LightLane', () => {
  it('keeps every light request on the router thread while its loop has room', () => {
    const lane = new LightLane({ spill: true });
    for (const u of [0.2, 0.85, 0.7]) lane.observe(u);
    expect(lane.share).toBe(0);
    expect(kept(lane, 100)).toBe(100);
  });

  it('sends a growing share to workers while the loop stays saturated, and takes it back', () => {
    const lane = new LightLane({ spill: true, step: 0.25 });
    lane.observe(0.95);
    expect(lane.share).toBe(0.25);
    expect(kept(lane, 100)).toBe(75);
    lane.observe(0.99);
    lane.observe(1);
    expect(kept(lane, 100)).toBe(25);
    lane.observe(1);
    lane.observe(1);
    expect(lane.share).toBe(1);
    expect(kept(lane, 10)).toBe(0);
    lane.observe(0.75); // between the thresholds: unchanged
    expect(lane.share).toBe(1);
    for (let i = 0; i < 4; i++) lane.observe(0.3);
    expect(lane.share).toBe(0);
    expect(kept(lane, 10)).toBe(10);
  });

  it('never spills when told there are no spare cores', () => {
    const lane = new LightLane({ spill: false });
    for (let i = 0; i < 10; i++) lane.observe(1);
    expect(lane.share).toBe(0);
    expect(kept(lane, 50)).toBe(50);
  });

  it("measures its own thread's event loop once started", async () => {
    const lane = new LightLane({ spill: true, windowMs: 20, step: 1 });
    lane.start();
    const until = Date.now() + 120;
    // busy for 120 ms: the first window after it saw a loop that never waited
    while (Date.now() < until) await new Promise<void>((r) => queueMicrotask(r));
    let most = 0;
    for (let i = 0; i < 60 && (most < 1 || lane.share > 0); i++) {
      await new Promise((r) => setTimeout(r, 5));
      most = Math.max(most, lane.share);
    }
    lane.stop();
    expect(most).toBe(1);
    expect(lane.share).toBe(0);
  });
});
