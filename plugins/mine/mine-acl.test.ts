import { describe, expect, it } from 'vitest';
import { aclEntry, allowedFunctions, wrapAcl } from './mine-acl.js';

describe('the master mine_get ACL (Python re.match at the start of the name)', () => {
  const acl = { 'web.*': ['network\\.ip_addrs', 'grains\\..*'], db1: ['disk'], '(bad': ['.*'] };

  it('no ACL allows every function', () => {
    expect(allowedFunctions(null, 'anyone', ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('unions the function patterns of every id pattern that matches, in the order asked', () => {
    expect(allowedFunctions(acl, 'web1', ['grains.items', 'network.ip_addrs', 'disk.usage'])).toEqual([
      'grains.items',
      'network.ip_addrs',
    ]);
    // re.match anchors at the start only: "disk" allows disk.usage, and "db1" matches db10
    expect(allowedFunctions(acl, 'db10', ['disk.usage', 'network.ip_addrs'])).toEqual(['disk.usage']);
    expect(allowedFunctions(acl, 'mail', ['disk.usage'])).toEqual([]);
    expect(allowedFunctions({}, 'web1', ['x'])).toEqual([]);
  });

  it('an invalid pattern matches nothing and is reported', () => {
    const bad: string[] = [];
    expect(allowedFunctions(acl, '(bad', ['x'], (p) => bad.push(p))).toEqual([]);
    expect(bad).toEqual(['(bad']);
  });
});

describe('minion-side ACL entries (salt.utils.mine)', () => {
  it('wraps as Salt does, leaving out falsy parts', () => {
    expect(wrapAcl([1], 'web*', 'glob')).toEqual({
      __data__: [1],
      __saltmine_acl__: 1,
      allow_tgt: 'web*',
      allow_tgt_type: 'glob',
    });
    expect(wrapAcl('x', 'web*')).toEqual({ __data__: 'x', __saltmine_acl__: 1, allow_tgt: 'web*' });
    expect(wrapAcl('x')).toEqual({ __data__: 'x', __saltmine_acl__: 1 });
  });

  it('unwraps an entry; a plain value is not one', () => {
    expect(aclEntry(wrapAcl('x', 'G@a:b', 'compound'))).toEqual({
      data: 'x',
      allowTgt: 'G@a:b',
      allowTgtType: 'compound',
    });
    expect(aclEntry(wrapAcl('x', 'web*'))).toEqual({ data: 'x', allowTgt: 'web*', allowTgtType: 'glob' });
    expect(aclEntry(wrapAcl('x'))).toEqual({ data: 'x' });
    expect(aclEntry({ a: 1 })).toBeUndefined();
    expect(aclEntry(['__saltmine_acl__'])).toBeUndefined();
    expect(aclEntry('x')).toBeUndefined();
  });
});
