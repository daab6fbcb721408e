import { describe, expect, it } from 'vitest';
import { cliCommand, parseArguments, splitWords, typeWord } from './args.js';

describe('console arguments (Salt CLI syntax)', () => {
  it('splits words as a shell does', () => {
    expect(splitWords(`a 1  k=v "two words" 'it''s' x\\ y`)).toEqual([
      'a',
      '1',
      'k=v',
      'two words',
      'its',
      'x y',
    ]);
    expect(splitWords('')).toEqual([]);
    expect(splitWords(`''`)).toEqual(['']);
    expect(() => splitWords('"open')).toThrow(/unterminated/);
  });

  it('types words as the salt CLI does before it publishes', () => {
    expect(parseArguments('a 1 k=v')).toEqual(['a', 1, { __kwarg__: true, k: 'v' }]);
    expect(parseArguments(`True no None 1.5 -3 [1,2] '{"a":1}' x=yes`)).toEqual([
      true,
      false,
      null,
      1.5,
      -3,
      [1, 2],
      { a: 1 },
      { __kwarg__: true, x: true },
    ]);
    expect(parseArguments('20260101000000000000')).toEqual(['20260101000000000000']);
    expect(parseArguments('"echo hi"')).toEqual(['echo hi']);
    expect(typeWord('tRue')).toBe('tRue');
    // YAML 1.1 as PyYAML reads it: octal, hex, base 60, exponent floats need a dot and a sign
    expect(
      ['007', '0x10', '12:30', '1e3', '1.0e+3', '1_000', '~', "'q'", '[a, 1]', '{k: v}', '2026-01-01'].map(
        typeWord,
      ),
    ).toEqual([7, 16, 750, '1e3', 1000, '1_000', null, 'q', ['a', 1], { k: 'v' }, '2026-01-01']);
    expect(typeWord('a==b')).toBe('a==b');
    expect(parseArguments('a==b')).toEqual(['a==b']);
  });

  it('copies a run as a salt command line', () => {
    expect(cliCommand('*', 'glob', 'test.ping', '')).toBe("salt '*' test.ping");
    expect(cliCommand('a,b', 'list', 'cmd.run', '"echo hi"')).toBe("salt -L a,b cmd.run 'echo hi'");
    expect(cliCommand('os:Debian', 'grain', 'test.arg', 'a k=v')).toBe(
      'salt --grain os:Debian test.arg a k=v',
    );
    // a batch size (salt -b) wins over async, which a batch run ignores
    expect(cliCommand('*', 'glob', 'test.ping', '', { batch: '25%', async: true })).toBe(
      "salt -b 25% '*' test.ping",
    );
    expect(cliCommand('a,b', 'list', 'test.ping', '', { batch: ' ', async: true })).toBe(
      'salt --async -L a,b test.ping',
    );
  });
});
