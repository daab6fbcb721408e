import { describe, expect, it } from 'vitest';
import { subdictMatch } from './subdict-match.js';
import { traverseDictAndList } from './traverse.js';

const grains = {
  os: 'Debian',
  os_family: 'Debian',
  roles: ['web', 'db'],
  env: 'prod',
  num_cpus: 4,
  virtual: true,
  nested: { a: { b: 'deep' }, list: [{ name: 'x' }, 'plain'] },
  url: 'http://x',
  empty: {},
  none: null,
};

describe('traverseDictAndList', () => {
  it.each([
    ['nested:a:b', 'deep'],
    ['roles:0', 'web'],
    ['roles:-1', 'db'],
    ['roles:5', 'DEFAULT'],
    ['nested:list:name', 'x'],
    ['nested:list:1', 'plain'],
    ['os:x', 'DEFAULT'],
    ['missing', 'DEFAULT'],
  ])('%s', (key, expected) => {
    expect(traverseDictAndList(grains, key, 'DEFAULT')).toEqual(expected);
  });
});

describe('subdictMatch (Salt subdict_match)', () => {
  it.each([
    ['os:Debian', true],
    ['os:debian', true],
    ['os:Deb*', true],
    ['os:Ubuntu', false],
    ['os', false],
    ['roles:web', true],
    ['roles:w?b', true],
    ['roles:cache', false],
    ['num_cpus:4', true],
    ['virtual:True', true],
    ['virtual:true', true],
    ['none:None', true],
    ['nested:a:b:deep', true],
    ['nested:a:b:d*', true],
    ['nested:a:b', true],
    ['nested:a:*', true],
    ['nested:list:name:x', true],
    ['nested:list:plain', true],
    ['url:http://x', true],
    ['*:prod', true],
    ['*:nothing', false],
    ['empty:*', false],
  ])('%s → %s', (expr, expected) => {
    expect(subdictMatch(grains, expr)).toBe(expected);
  });

  it('uses the delimiter for levels and keeps it in values', () => {
    expect(subdictMatch(grains, 'nested|a|b|deep', { delimiter: '|' })).toBe(true);
    expect(subdictMatch(grains, 'nested:a:b:deep', { delimiter: '|' })).toBe(false);
    expect(subdictMatch({ k: 'a|b' }, 'k|a|b', { delimiter: '|' })).toBe(true);
  });

  it('regex values are matched from the start, case-insensitively', () => {
    expect(subdictMatch(grains, 'os:deb.*', { regexMatch: true })).toBe(true);
    expect(subdictMatch(grains, 'os:ebian', { regexMatch: true })).toBe(false);
    expect(subdictMatch(grains, 'roles:(web|cache)$', { regexMatch: true })).toBe(true);
    expect(subdictMatch(grains, 'os:[', { regexMatch: true })).toBe(false);
  });

  it('exact values', () => {
    expect(subdictMatch(grains, 'os:debian', { exactMatch: true })).toBe(true);
    expect(subdictMatch(grains, 'os:Deb*', { exactMatch: true })).toBe(false);
  });

  it('no data matches nothing', () => {
    expect(subdictMatch({}, 'os:*')).toBe(false);
    expect(subdictMatch(null, 'os:*')).toBe(false);
  });
});

describe('subdictMatch compares values as Python str() shows them', () => {
  it('a float grain as Python prints it (measured: salt.utils.data.subdict_match)', () => {
    expect(subdictMatch({ f: 1e-7 }, 'f:1e-07')).toBe(true);
    expect(subdictMatch({ f: 1e-7 }, 'f:1e-7')).toBe(false);
  });
});
