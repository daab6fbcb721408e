import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, nextFailureCount, RestartBackoff } from './backoff.js';

describe('backoffDelay', () => {
  it('doubles from initialMs and caps at maxMs', () => {
    const delays = Array.from({ length: 10 }, (_, i) => backoffDelay(DEFAULT_BACKOFF, i));
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 6400, 10_000, 10_000, 10_000]);
  });

  it('stays finite and capped for huge or odd failure counts', () => {
    expect(backoffDelay(DEFAULT_BACKOFF, 5000)).toBe(10_000);
    expect(backoffDelay(DEFAULT_BACKOFF, -3)).toBe(100);
    expect(backoffDelay(DEFAULT_BACKOFF, 1.7)).toBe(200);
    expect(backoffDelay({ initialMs: 50, maxMs: 10, resetAfterMs: 1 }, 3)).toBe(50);
  });
});

describe('nextFailureCount', () => {
  it('keeps counting after a short run and resets after a healthy one', () => {
    expect(nextFailureCount(DEFAULT_BACKOFF, 4, 29_999)).toBe(4);
    expect(nextFailureCount(DEFAULT_BACKOFF, 4, 30_000)).toBe(0);
  });
});

describe('RestartBackoff (fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs the restart after the growing delay, and resets after 30 s of uptime', () => {
    const b = new RestartBackoff(DEFAULT_BACKOFF);
    const restart = vi.fn();
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) {
      b.started();
      vi.advanceTimersByTime(50); // crashes quickly
      const delay = b.schedule(restart);
      seen.push(delay);
      expect(b.pending).toBe(true);
      vi.advanceTimersByTime(delay - 1);
      expect(restart).toHaveBeenCalledTimes(i);
      vi.advanceTimersByTime(1);
      expect(restart).toHaveBeenCalledTimes(i + 1);
      expect(b.pending).toBe(false);
    }
    expect(seen).toEqual([100, 200, 400, 800]);

    b.started();
    vi.advanceTimersByTime(30_000); // a healthy run
    expect(b.schedule(restart)).toBe(100);
    expect(b.failures).toBe(1);
  });

  it('cancel() drops a scheduled restart', () => {
    const b = new RestartBackoff({ initialMs: 10, maxMs: 100, resetAfterMs: 1000 });
    const restart = vi.fn();
    b.started();
    b.schedule(restart);
    b.cancel();
    vi.advanceTimersByTime(1000);
    expect(restart).not.toHaveBeenCalled();
    expect(b.pending).toBe(false);
  });

  it('caps at maxMs over a long crash loop', () => {
    const b = new RestartBackoff({ initialMs: 100, maxMs: 1000, resetAfterMs: 30_000 });
    let last = 0;
    for (let i = 0; i < 20; i++) {
      b.started();
      last = b.schedule(() => {});
      vi.advanceTimersByTime(last);
    }
    expect(last).toBe(1000);
  });
});
