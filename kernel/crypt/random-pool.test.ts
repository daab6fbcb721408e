import { describe, expect, it } from 'vitest';
import { freshIv, freshNonce } from './random-pool.js';

describe('random pool', () => {
  it('hands out 16-byte IVs and 32-hex nonces, never the same twice across pool refills', () => {
    const seen = new Set<string>();
    // 1,000 of each, interleaved: the 256-slice pool is refilled several times along the way
    for (let i = 0; i < 1000; i++) {
      const iv = freshIv();
      expect(iv.length).toBe(16);
      seen.add(iv.toString('hex'));
      const nonce = freshNonce();
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      seen.add(nonce);
    }
    expect(seen.size).toBe(2000);
  });
});
