import { describe, expect, it } from 'vitest';
import { checkClearAuth, userKeyMatches } from './clear-auth.js';

describe('clear command auth', () => {
  it('accepts a valid user key and names the user', () => {
    expect(userKeyMatches('abc', ['x', 'abc'])).toBe(true);
    expect(userKeyMatches('abd', ['abc'])).toBe(false);
    expect(checkClearAuth({ key: 'abc', user: 'alice' }, ['abc'])).toEqual({ user: 'alice' });
  });
  it('refuses a bad key and explains eauth', () => {
    expect(checkClearAuth({ key: 'no' }, ['abc'])).toEqual({
      error: { name: 'AuthenticationError', message: 'Authentication error occurred.' },
    });
    const e = checkClearAuth({ eauth: 'pam' }, ['abc']) as { error: { name: string } };
    expect(e.error.name).toBe('EauthAuthenticationError');
  });
});
