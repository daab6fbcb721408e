import { describe, expect, it } from 'vitest';
import { type CheckContext, checkMinions, needsMinionData } from './check-minions.js';
import type { MinionData } from './data-cache.js';

const data = new Map<string, MinionData>([
  [
    'm1',
    { grains: { roles: ['web', 'db'], env: 'prod', ipv4: ['127.0.0.1'], deep: { a: 'x' } }, pillar: {} },
  ],
  ['m2', { grains: { roles: ['web'], env: 'prod', ipv4: ['127.0.0.1'] }, pillar: {} }],
  ['m3', { grains: { roles: ['db'], env: 'dev', ipv4: ['10.1.2.3'] }, pillar: { team: 'ops' } }],
  ['m4', { grains: { roles: [], env: 'dev', ipv4: ['127.0.0.1'] }, pillar: {} }],
]);
const ctx: CheckContext = {
  accepted: ['m1', 'm2', 'm3', 'm4', 'new'],
  data,
  nodegroups: { webs: 'G@roles:web', pair: ['m1', 'm2'], loop: 'N@loop' },
};
const ids = (tgt: unknown, type: string, extra: Partial<CheckContext> = {}): string[] =>
  checkMinions(tgt, type, { ...ctx, ...extra }).minions;

describe('checkMinions (master side)', () => {
  it('glob, pcre and list use the accepted ids', () => {
    expect(ids('m[12]', 'glob')).toEqual(['m1', 'm2']);
    expect(ids('m', 'pcre')).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(ids('1', 'pcre')).toEqual([]);
    expect(checkMinions('m1,ghost', 'list', ctx)).toEqual({ minions: ['m1'], missing: ['ghost'] });
    expect(checkMinions(['m2'], 'list', ctx)).toEqual({ minions: ['m2'], missing: [] });
  });

  it('grain targets use the cache and keep minions without data (greedy)', () => {
    expect(ids('roles:web', 'grain')).toEqual(['m1', 'm2', 'new']);
    expect(ids('env:pr*', 'grain')).toEqual(['m1', 'm2', 'new']);
    expect(ids('deep|a|x', 'grain', { delimiter: '|' })).toEqual(['m1', 'new']);
    expect(ids('roles:web', 'grain', { greedy: false })).toEqual(['m1', 'm2']);
    expect(ids('roles:w.b$', 'grain_pcre')).toEqual(['m1', 'm2', 'new']);
    expect(ids('team:ops', 'pillar')).toEqual(['m3', 'new']);
    expect(ids('team:o.s', 'pillar_pcre')).toEqual(['m3', 'new']);
    expect(ids('roles:web', 'grain', { cacheEnabled: false })).toEqual(ctx.accepted);
  });

  it('pillarExact (the mine) compares pillar values exactly, alone and in a compound target', () => {
    expect(ids('team:o*', 'pillar', { greedy: false })).toEqual(['m3']);
    expect(ids('team:o*', 'pillar', { greedy: false, pillarExact: true })).toEqual([]);
    expect(ids('team:ops', 'pillar', { greedy: false, pillarExact: true })).toEqual(['m3']);
    expect(ids('I@team:o* or m1', 'compound', { greedy: false, pillarExact: true })).toEqual(['m1']);
    // grains still glob
    expect(ids('env:pr*', 'grain', { greedy: false, pillarExact: true })).toEqual(['m1', 'm2']);
  });

  it('ipcidr uses the cached address grains', () => {
    expect(ids('127.0.0.0/8', 'ipcidr')).toEqual(['m1', 'm2', 'm4', 'new']);
    expect(ids('10.0.0.0/8', 'ipcidr')).toEqual(['m3', 'new']);
    expect(ids('10.1.2.3', 'ipcidr')).toEqual(['m3', 'new']);
  });

  it('compound targets follow Python precedence over the sets', () => {
    expect(ids('G@env:prod and not L@m2 or E@m4', 'compound')).toEqual(['m1', 'm4', 'new']);
    expect(ids('G@env:prod and ( not L@m2 or E@m4 )', 'compound')).toEqual(['m1', 'new']);
    expect(ids('not G@roles:web', 'compound')).toEqual(['m3', 'm4']);
    expect(ids('m* and not S@10.0.0.0/8', 'compound')).toEqual(['m1', 'm2', 'm4']);
    expect(ids('G|@roles|db and m*', 'compound')).toEqual(['m1', 'm3']);
    expect(ids('N@webs and not N@pair', 'compound')).toEqual(['new']);
  });

  it('reports missing list ids unless the list is negated', () => {
    expect(checkMinions('m1 or L@ghost,m2', 'compound', ctx)).toEqual({
      minions: ['m1', 'm2'],
      missing: ['ghost'],
    });
    expect(checkMinions('m1 and not L@ghost', 'compound', ctx)).toEqual({ minions: ['m1'], missing: [] });
  });

  it('nodegroups', () => {
    expect(ids('webs', 'nodegroup')).toEqual(['m1', 'm2', 'new']);
    expect(ids('pair', 'nodegroup')).toEqual(['m1', 'm2']);
    expect(() => ids('nope', 'nodegroup')).toThrow('Node group nope unavailable');
    expect(() => ids('loop', 'nodegroup')).toThrow('includes itself');
  });

  it.each([
    ['(', 'compound', 'Invalid compound target'],
    ['R@x', 'compound', 'range targets'],
    ['G@os', 'compound', 'needs a key and a value'],
    ['os', 'grain', 'needs a key and a value'],
    ['E@(', 'compound', 'invalid regular expression'],
    ['(', 'pcre', 'invalid regular expression'],
    ['S@1.2.3.4/8', 'compound', 'invalid IP/CIDR target'],
    ['x', 'bogus', 'unknown target type "bogus"'],
    ['', 'glob', 'non-empty'],
  ])('%j (%s) is an error', (tgt, type, why) => {
    expect(() => checkMinions(tgt, type, ctx)).toThrow(why);
  });
});

describe('needsMinionData', () => {
  it.each([
    ['glob', 'web*', false],
    ['list', 'a,b', false],
    ['grain', 'os:x', true],
    ['ipcidr', '10.0.0.0/8', true],
    ['compound', 'web* and not E@db', false],
    ['compound', 'web* and G@os:x', true],
    ['compound', 'G|@os|x', true],
    ['compound', 'S@10.0.0.0/8', true],
  ])('%s %s → %s', (type, tgt, expected) => {
    expect(needsMinionData(type, tgt)).toBe(expected);
  });
});

describe('the minion data cache', () => {
  it('an entry without the searched data does not match; no entry at all does (greedy)', () => {
    const sparse: CheckContext = { accepted: ['a', 'b'], data: new Map([['a', {}]]) };
    expect(checkMinions('team:ops', 'pillar', sparse).minions).toEqual(['b']);
    expect(checkMinions('0.0.0.0/0', 'ipcidr', sparse).minions).toEqual(['b']);
  });
});
