import { describe, expect, it } from 'vitest';
import { DEFAULT_REFSPECS, mirrorRefspecs } from './refspecs.js';
import { envExposed, exprMatch } from './saltenv-filter.js';
import { toStringList } from './string-list.js';

describe('mirrorRefspecs', () => {
  it("moves Salt's refs/remotes/origin/ destinations to the bare mirror's refs/heads/", () => {
    expect(mirrorRefspecs(DEFAULT_REFSPECS)).toEqual([
      '+refs/heads/*:refs/heads/*',
      '+refs/tags/*:refs/tags/*',
    ]);
    expect(mirrorRefspecs(['refs/pull/*/head:refs/remotes/origin/pr/*', 'refs/x/*:refs/y/*'])).toEqual([
      'refs/pull/*/head:refs/heads/pr/*',
      'refs/x/*:refs/y/*',
    ]);
  });

  it('refuses what git would refuse or read as an option', () => {
    for (const bad of ['', '+', 'a b', '-x', '+--upload-pack=y', 'a:b:c']) {
      expect(() => mirrorRefspecs([bad])).toThrow(/invalid refspec/);
    }
  });
});

describe("Salt's stringlist and saltenv white/blacklists", () => {
  it('splits a string at commas and trims; lists keep their items as strings', () => {
    expect(toStringList('base, dev ,pr/.*')).toEqual(['base', 'dev', 'pr/.*']);
    expect(toStringList([1, 'a'])).toEqual(['1', 'a']);
    expect(toStringList(null)).toEqual([]);
  });

  it('expr_match: exact, fnmatch glob, or a regex over the whole value; a bad regex matches nothing', () => {
    expect(exprMatch('dev', 'dev')).toBe(true);
    expect(exprMatch('feature/x', 'feat*')).toBe(true);
    expect(exprMatch('feature/x', 'feat.*')).toBe(true);
    expect(exprMatch('feature/x', 'feat')).toBe(false);
    expect(exprMatch('v1', '[fv]*')).toBe(true);
    expect(exprMatch('x', '(')).toBe(false);
  });

  it('blacklist first, then the whitelist if there is one', () => {
    expect(envExposed('dev', [], [])).toBe(true);
    expect(envExposed('dev', ['d*'], ['dev'])).toBe(false);
    expect(envExposed('qa', ['d*'], [])).toBe(false);
    expect(envExposed('qa', [], ['d*'])).toBe(true);
  });
});
