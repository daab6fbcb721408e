import { describe, expect, it } from 'vitest';
import { globMatch } from './glob.js';

describe('globMatch (fnmatch)', () => {
  it.each([
    ['*', 'web1', true],
    ['web*', 'web1', true],
    ['web*', 'db1', false],
    ['web?', 'web1', true],
    ['web?', 'web10', false],
    ['web[12]', 'web2', true],
    ['web[!12]', 'web2', false],
    ['web[!12]', 'web3', true],
    ['web[1-3]', 'web3', true],
    ['a.b', 'axb', false],
    ['a.b', 'a.b', true],
    ['[', '[', true],
    ['Web*', 'web1', false],
    ['*.example.com', 'm1.example.com', true],
  ])('%s ~ %s = %s', (pattern, name, expected) => {
    expect(globMatch(pattern, name)).toBe(expected);
  });
});
