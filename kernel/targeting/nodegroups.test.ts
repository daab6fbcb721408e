import { describe, expect, it } from 'vitest';
import { nodegroupComp, resolveNodegroups } from './nodegroups.js';

const groups = {
  webs: 'G@roles:web',
  pair: ['m1', 'm2'],
  rx: ['m[12]', 'm3'],
  globs: 'web*',
  both: 'N@webs or N@pair',
  deep: 'N@both and not m3',
  loop1: 'N@loop2',
  loop2: 'm1 or N@loop1',
  self: 'N@self',
  bad: 5 as unknown as string,
};

describe('nodegroupComp (Salt nodegroup_comp)', () => {
  it.each([
    ['webs', ['G@roles:web']],
    ['pair', ['L@m1,m2']],
    ['rx', ['E@m[12],m3']],
    ['globs', ['web*']],
    // as Salt: a nested group with a prefix keeps its own parentheses, a plain list becomes L@
    ['both', ['(', '(', 'G@roles:web', ')', 'or', 'L@m1,m2', ')']],
    ['deep', ['(', '(', '(', 'G@roles:web', ')', 'or', 'L@m1,m2', ')', 'and', 'not', 'm3', ')']],
  ])('%s', (name, expected) => {
    expect(nodegroupComp(name, groups)).toEqual(expected);
  });

  it('unknown groups and cycles are errors', () => {
    expect(() => nodegroupComp('nope', groups, '/etc/salt/master')).toThrow(
      'Node group nope unavailable in /etc/salt/master',
    );
    expect(() => nodegroupComp('loop1', groups)).toThrow('N@loop1 → N@loop2 → N@loop1');
    expect(() => nodegroupComp('self', groups)).toThrow('includes itself');
    expect(() => nodegroupComp('bad', groups)).toThrow('neither');
  });
});

describe('resolveNodegroups (what the master publishes)', () => {
  it('turns a nodegroup into a compound string', () => {
    expect(resolveNodegroups('pair', 'nodegroup', groups)).toEqual({ tgt: 'L@m1,m2', tgtType: 'compound' });
    expect(resolveNodegroups('webs', 'nodegroup', groups)).toEqual({
      tgt: 'G@roles:web',
      tgtType: 'compound',
    });
  });
  it('expands N@ words of a compound target', () => {
    expect(resolveNodegroups('N@pair and not m2', 'compound', groups).tgt).toBe('L@m1,m2 and not m2');
    expect(resolveNodegroups(['N@both', 'and', 'm1'], 'compound', groups).tgt).toBe(
      '( ( G@roles:web ) or L@m1,m2 ) and m1',
    );
  });
  it('leaves other target types alone', () => {
    expect(resolveNodegroups(['a', 'b'], 'list', groups)).toEqual({ tgt: ['a', 'b'], tgtType: 'list' });
  });
});
