import { describe, expect, it } from 'vitest';
import { pyReMatch } from './py-regex.js';

describe('pyReMatch (Python re.match)', () => {
  it.each([
    ['web', 'web1', true],
    ['eb', 'web1', false],
    ['web\\d$', 'web1', true],
    ['a|web', 'web1', true],
    ['(?P<n>w)e(?P=n)?b', 'web', true],
    ['\\Aweb\\Z', 'web', true],
    ['(?i)WEB', 'web', true],
  ])('%s on %s → %s', (pattern, text, expected) => {
    expect(pyReMatch(pattern, text)).toBe(expected);
  });

  it('an invalid pattern says so', () => {
    expect(() => pyReMatch('(', 'x')).toThrow('invalid regular expression "("');
  });
});
