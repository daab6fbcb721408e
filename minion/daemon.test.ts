import { describe, expect, it } from 'vitest';
import { asctime } from './daemon.js';

describe('asctime', () => {
  it('formats like Python time.asctime (space-padded day)', () => {
    expect(asctime(new Date(2026, 10, 2, 9, 5, 7))).toBe('Mon Nov  2 09:05:07 2026');
    expect(asctime(new Date(2026, 10, 22, 11, 54, 4))).toBe('Sun Nov 22 11:54:04 2026');
  });
});
