import { describe, expect, it } from 'vitest';
import { joinLocale, normalizeLocale, splitLocale } from './_locale-names.js';

describe('locale names', () => {
  it('splits and joins every part', () => {
    const p = splitLocale('ca_ES.UTF-8@valencia UTF-8');
    expect(p).toEqual({
      language: 'ca',
      territory: 'ES',
      codeset: 'UTF-8',
      modifier: 'valencia',
      charmap: 'UTF-8',
    });
    expect(joinLocale(p)).toBe('ca_ES.UTF-8@valencia UTF-8');
    expect(splitLocale('C')).toEqual({
      language: 'C',
      territory: '',
      codeset: '',
      modifier: '',
      charmap: '',
    });
  });
  it('normalizes as locale -a prints', () => {
    expect(normalizeLocale('en_us.UTF-8 UTF-8')).toBe('en_US.utf8');
    expect(normalizeLocale('C.UTF-8')).toBe('C.utf8');
    expect(normalizeLocale('POSIX')).toBe('POSIX');
  });
});
