import { describe, expect, it } from 'vitest';
import { missingFunString, moduleOf } from './missing.js';

describe('missingFunString (Salt LazyLoader.missing_fun_string)', () => {
  it('says a function is not available when nothing is known or its module is loaded', () => {
    expect(missingFunString('foo.bar', false, undefined)).toBe("'foo.bar' is not available.");
    expect(missingFunString('foo.bar', true, 'ignored when loaded')).toBe("'foo.bar' is not available.");
  });

  it('gives the module reason in the __virtual__ wording', () => {
    expect(missingFunString('foo.bar', false, 'needs systemd')).toBe(
      "'foo' __virtual__ returned False: needs systemd",
    );
    expect(missingFunString('foo.bar', false, '')).toBe("'foo' __virtual__ returned False");
  });
});

describe('moduleOf', () => {
  it('takes what is before the first dot', () => {
    expect(moduleOf('a.b.c')).toBe('a');
    expect(moduleOf('a')).toBe('a');
  });
});
