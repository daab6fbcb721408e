import { describe, expect, it } from 'vitest';
import { compareVersions } from './manage.js';

describe('manage runner', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('0.1.0', '0.1.0')).toBe(0);
    expect(compareVersions('0.2.0', '0.10.0')).toBe(-1);
    expect(compareVersions('3006.18', '3006.9')).toBe(1);
  });
});
