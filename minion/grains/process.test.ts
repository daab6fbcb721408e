import { describe, expect, it } from 'vitest';
import { groupName, localeFromEnv, timezoneName } from './process.js';

describe('process and locale grains', () => {
  it('finds the group name', () => {
    expect(groupName('root:x:0:\nstaff:x:50:bob\n', 50)).toBe('staff');
    expect(groupName('', 7)).toBe('');
  });

  it("reads the locale as Python's getlocale does", () => {
    expect(localeFromEnv({ LANG: 'en_US.UTF-8' })).toEqual(['en_US', 'UTF-8']);
    expect(localeFromEnv({ LC_ALL: 'de_DE.utf8', LANG: 'en_US.UTF-8' })).toEqual(['de_DE', 'UTF-8']);
    // measured with Debian 12's Python 3.11, as Salt 3006 reads it
    expect(localeFromEnv({})).toEqual(['en_US', 'UTF-8']);
    expect(localeFromEnv({ LANG: 'C' })).toEqual(['en_US', 'UTF-8']);
    expect(localeFromEnv({ LANG: 'C.UTF-8' })).toEqual(['en_US', 'UTF-8']);
    expect(localeFromEnv({ LC_ALL: 'C.utf8' })).toEqual(['en_US', 'UTF-8']);
  });

  it('names the time zone from the TZif footer', () => {
    expect(timezoneName(Buffer.from('TZif...\nUTC0\n'))).toBe('UTC');
    expect(timezoneName(Buffer.from('TZif...\n<+03>-3\n'))).toBe('+03');
  });
});
