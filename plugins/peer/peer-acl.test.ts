import { describe, expect, it } from 'vitest';
import { peerPerms, runnerAllowed, splitCompound } from './peer-acl.js';
import { parseInput, publishArgs } from './peer-args.js';

describe('peer permissions (Salt re.match on the minion id and on the function)', () => {
  const peer = { 'web.*': ['test.*', 'grains.item'], web1: ['cmd.run'], db: 'not a list', '[': ['x.*'] };

  it('gathers the lists of every matching key; non-lists and bad patterns grant nothing', () => {
    expect(peerPerms(peer, 'web1')).toEqual(['test.*', 'grains.item', 'cmd.run']);
    expect(peerPerms(peer, 'web2')).toEqual(['test.*', 'grains.item']);
    expect(peerPerms(peer, 'db')).toEqual([]);
    // anchored at the start only, as re.match
    expect(peerPerms(peer, 'xweb1')).toEqual([]);
  });

  it('peer_run: a runner function regex of the minion allows it', () => {
    const peerRun = { 'p.*': ['manage.up', 'jobs\\..*'] };
    expect(runnerAllowed(peerRun, 'p1', 'manage.up')).toBe(true);
    expect(runnerAllowed(peerRun, 'p1', 'jobs.list_jobs')).toBe(true);
    expect(runnerAllowed(peerRun, 'p1', 'manage.down')).toBe(false);
    expect(runnerAllowed(peerRun, 'q1', 'manage.up')).toBe(false);
  });

  it("Salt's comma form makes a compound job, each argument split at blanks", () => {
    expect(splitCompound('test.ping', ['a b'])).toEqual({ fun: 'test.ping', arg: ['a b'] });
    expect(splitCompound('cmd.run,test.ping', ['cat /proc/cpuinfo', ''])).toEqual({
      fun: ['cmd.run', 'test.ping'],
      arg: [['cat', '/proc/cpuinfo'], []],
    });
  });
});

describe("peer arguments (Salt's parse_input then condition_input)", () => {
  it('types words, makes keywords of name=value words and __kwarg__ maps', () => {
    expect(parseInput(['1', 'x', 'k=yes', { __kwarg__: true, j: 2 }, { plain: 1 }])).toEqual({
      args: [1, 'x', { plain: 1 }],
      kwargs: { k: true, j: 2 },
    });
    expect(publishArgs(['a,b=1,c'])).toEqual(['a,b=1,c']);
    expect(publishArgs(['x', 'k=2'])).toEqual(['x', { __kwarg__: true, k: 2 }]);
  });

  it('leaves the values of no_parse keywords as strings, and jid-like integers as strings', () => {
    expect(publishArgs(['k=2', 'n=3'], ['k'])).toEqual([{ __kwarg__: true, k: '2', n: 3 }]);
    expect(publishArgs(['20261127120000123456'])).toEqual(['20261127120000123456']);
  });
});
