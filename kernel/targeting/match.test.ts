import { describe, expect, it } from 'vitest';
import { matchesTarget } from './match.js';
import { listMatch } from './matchers.js';

const grains = { id: 'm1', roles: ['web', 'db'], env: 'prod', ipv4: ['127.0.0.1'], os: 'Debian' };
const m = (tgt: unknown, type: string, extra: Record<string, unknown> = {}): boolean =>
  matchesTarget('m1', tgt, type, { grains, pillar: { team: 'ops' }, ...extra });

describe('matchesTarget (minion side)', () => {
  it('id targets', () => {
    expect(m('m*', 'glob')).toBe(true);
    expect(m('m*', '')).toBe(true);
    expect(m('m2', 'glob')).toBe(false);
    expect(m('m\\d', 'pcre')).toBe(true);
    expect(m('1', 'pcre')).toBe(false);
    expect(m('(', 'pcre')).toBe(false);
    expect(m('m2,m1', 'list')).toBe(true);
    expect(m(['m1'], 'list')).toBe(true);
    expect(m('m10,m2', 'list')).toBe(false);
  });

  it('data targets', () => {
    expect(m('roles:web', 'grain')).toBe(true);
    expect(m('os:deb*', 'grain')).toBe(true);
    expect(m('roles', 'grain')).toBe(false);
    expect(m('roles|web', 'grain', { delimiter: '|' })).toBe(true);
    expect(m('env:p.*d', 'grain_pcre')).toBe(true);
    expect(m('team:ops', 'pillar')).toBe(true);
    expect(m('team:o', 'pillar_pcre')).toBe(true);
    expect(m('team:ops', 'pillar', { pillar: {} })).toBe(false);
  });

  it('ipcidr', () => {
    expect(m('127.0.0.0/8', 'ipcidr')).toBe(true);
    expect(m('10.0.0.0/8', 'ipcidr')).toBe(false);
    expect(m('127.0.0.1', 'ipcidr')).toBe(true);
    expect(m('not-an-ip', 'ipcidr')).toBe(false);
  });

  it('compound and nodegroup', () => {
    expect(m('G@env:prod and not L@m2 or E@m4', 'compound')).toBe(true);
    expect(m('G@env:prod and not L@m1 or E@m4', 'compound')).toBe(false);
    expect(m('not G@env:prod or m1', 'compound')).toBe(true);
    expect(m(['S@127.0.0.0/8', 'and', 'I@team:ops'], 'compound')).toBe(true);
    expect(m('( m1', 'compound')).toBe(false);
    expect(m('N@webs', 'compound')).toBe(false);
    expect(m('N@webs', 'compound', { nodegroups: { webs: 'G@roles:web' } })).toBe(true);
    expect(m('webs', 'nodegroup', { nodegroups: { webs: 'G@roles:web' } })).toBe(true);
  });

  it('unknown types do not match', () => {
    expect(m('x', 'range')).toBe(false);
  });
});

describe("listMatch (Salt's list_match on a string)", () => {
  it.each([
    ['a,b,c', 'b', true],
    ['a,b,c', 'a', true],
    ['a,b,c', 'c', true],
    ['a', 'a', true],
    ['ab,c', 'a', false],
  ])('%s has %s: %s', (tgt, id, expected) => {
    expect(listMatch(tgt, id)).toBe(expected);
  });
});
