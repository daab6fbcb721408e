import { describe, expect, it } from 'vitest';
import { fnmatch } from './_fnmatch.js';
import { shlexSplit } from './_shlex.js';

// Expected values from CPython 3.11 shlex.split / fnmatch.fnmatchcase.
const SPLIT: [string, string[] | string][] = [
  ['echo hi', ['echo', 'hi']],
  ['  echo   "a b"  c ', ['echo', 'a b', 'c']],
  [`echo 'a "b" c'`, ['echo', 'a "b" c']],
  ['echo "a \\"b\\" \\\\ \\$x"', ['echo', 'a "b" \\ \\$x']],
  ['a\\ b c', ['a b', 'c']],
  ["''", ['']],
  ['a""b', ['ab']],
  ['echo ""', ['echo', '']],
  ["it\\'s", ["it's"]],
  ['x "unterminated', 'No closing quotation'],
  ['x\\', 'No escaped character'],
  ['sed -e s/=/:/g', ['sed', '-e', 's/=/:/g']],
  ['a\tb\nc', ['a', 'b', 'c']],
  [`"a"'b'c`, ['abc']],
  ['echo \\\\n', ['echo', '\\n']],
  ['', []],
];

const MATCH: [string, string, boolean][] = [
  ['test.sleep', 'test.*', true],
  ['test.sleep', '*.sl??p', true],
  ['a', '[!b]', true],
  ['b', '[!b]', false],
  [']', '[]]', true],
  ['[', '[', true],
  ['a.b', 'a?b', true],
  ['a\nb', 'a*b', true],
  ['x-y', '[a-z]-[!0-9]', true],
  ['foo', 'FOO', false],
  ['a[b', 'a[b', true],
  ['state.highstate', 'state.*', true],
  ['x', '*', true],
  ['', '*', true],
  ['rm -rf /', 'rm *', true],
  ['a+b', 'a+b', true],
  ['ab', 'a+b', false],
];

describe('shlexSplit', () => {
  it.each(SPLIT)('%j', (input, expected) => {
    if (typeof expected === 'string') {
      expect(() => shlexSplit(input)).toThrow(expected);
      try {
        shlexSplit(input);
      } catch (err) {
        expect((err as { code?: string }).code).toBe('SALT_ERR_EXEC_COMMAND');
      }
    } else {
      expect(shlexSplit(input)).toEqual(expected);
    }
  });
});

describe('fnmatch', () => {
  it.each(MATCH)('%j ~ %j is %s', (name, pattern, expected) => {
    expect(fnmatch(name, pattern)).toBe(expected);
  });
});
