import { describe, expect, it } from 'vitest';
import { globToRegex, hasWildcard } from './glob.js';

const matches = (glob: string, text: string) => new RegExp(globToRegex(glob)).test(text);

describe('globToRegex (fnmatch rules)', () => {
  it('matches as fnmatch does', () => {
    expect(matches('pkg.*', 'pkg.install')).toBe(true);
    expect(matches('pkg.*', 'xpkg.install')).toBe(false);
    expect(matches('web?', 'web1')).toBe(true);
    expect(matches('web?', 'web10')).toBe(false);
    expect(matches('web[12]', 'web2')).toBe(true);
    expect(matches('web[!12]', 'web2')).toBe(false);
    expect(matches('web[!12]', 'web3')).toBe(true);
    expect(matches('a.b', 'axb')).toBe(false);
    expect(matches('a+(b)|c$', 'a+(b)|c$')).toBe(true);
    expect(matches('[oops', '[oops')).toBe(true);
  });

  it('tells a glob from a plain name', () => {
    expect(hasWildcard('test.ping')).toBe(false);
    expect(hasWildcard('test.*')).toBe(true);
    expect(hasWildcard('web[12]')).toBe(true);
  });
});
