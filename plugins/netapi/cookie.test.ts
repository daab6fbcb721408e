import { describe, expect, it } from 'vitest';
import { cookieValue } from './cookie.js';

describe('cookieValue', () => {
  it('finds the named cookie and decodes it', () => {
    expect(cookieValue('a=1; session_id=ab%20c; b=2', 'session_id')).toBe('ab c');
    expect(cookieValue('a=1', 'session_id')).toBeUndefined();
    expect(cookieValue(undefined, 'session_id')).toBeUndefined();
  });
  it('takes malformed percent-encoding for no cookie instead of throwing', () => {
    expect(cookieValue('session_id=%E0%A4%A', 'session_id')).toBeUndefined();
    expect(cookieValue('session_id=%zz', 'session_id')).toBeUndefined();
  });
});
