import { describe, expect, it } from 'vitest';
import { parseConfigRegexp, parseFetch, parseRefs, parseRemotes, parseStatus } from './_git-parse.js';
import { redactAuth } from './_git-run.js';

describe('git output parsers', () => {
  it('reads ls-remote and remote -v', () => {
    expect(parseRefs('abc\tHEAD\ndef\trefs/heads/main\n')).toEqual({ HEAD: 'abc', 'refs/heads/main': 'def' });
    expect(
      parseRemotes(
        'origin\thttps://u:p@h/r (fetch)\norigin\thttps://u:p@h/r (push)\nx\ty (other)\n',
        redactAuth,
      ),
    ).toEqual({ origin: { fetch: 'https://<redacted>@h/r', push: 'https://<redacted>@h/r' } });
  });
  // git marks a tag update with ' t', which Salt's pattern does not read: neither does ours
  it('reads what fetch changed', () => {
    const out = [
      'From /tmp/r',
      '   1a2b3c4..5d6e7f8  main       -> origin/main',
      ' * [new branch]      dev        -> origin/dev',
      ' * [new tag]         v1         -> v1',
      ' t [tag update]      v0         -> v0',
    ].join('\n');
    expect(parseFetch(out)).toEqual({
      'updated branches': { main: { old: '1a2b3c4', new: '5d6e7f8' } },
      'new branches': ['dev'],
      'new tags': ['v1'],
    });
  });
  it('reads status and config', () => {
    expect(parseStatus(' M a.txt\0?? b.txt\0A  c\0')).toEqual({
      modified: ['a.txt'],
      untracked: ['b.txt'],
      new: ['c'],
    });
    expect(parseConfigRegexp('user.name A B\nuser.name C\n')).toEqual({ 'user.name': ['A B', 'C'] });
  });
});
