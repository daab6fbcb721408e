import { describe, expect, it } from 'vitest';
import { freshIv } from './iv-pool.js';

describe('freshIv', () => {
  it('hands out 16 bytes, never the same twice across pool refills', () => {
    const seen = new Set<string>();
    // 1,000 draws: the 256-IV pool is refilled three times along the way
    for (let i = 0; i < 1000; i++) {
      const iv = freshIv();
      expect(iv.length).toBe(16);
      seen.add(iv.toString('hex'));
    }
    expect(seen.size).toBe(1000);
  });
});
