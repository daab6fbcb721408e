import { describe, expect, it } from 'vitest';
import { SLOW_GRACE_MS, slowJudge } from './events.js';

describe('slowJudge', () => {
  it('forgives a short burst over the bound, not a lasting backlog or a huge one', () => {
    let t = 1000;
    const judge = slowJudge(100, () => t);
    expect(judge(50)).toBe(false);
    expect(judge(150)).toBe(false); // over since t=1000
    t += SLOW_GRACE_MS / 2;
    expect(judge(300)).toBe(false);
    expect(judge(80)).toBe(false); // drained: the clock restarts
    t += SLOW_GRACE_MS * 2;
    expect(judge(150)).toBe(false);
    t += SLOW_GRACE_MS + 1;
    expect(judge(150)).toBe(true);
    expect(slowJudge(100, () => 0)(401)).toBe(true);
  });
});
