// Anchor and alias names end where PyYAML ends them (letters, digits, '-', '_'), cases checked
// against PyYAML's safe_load on this machine (vim-formula's pillar.example has `&colorcolumn: ...`).
import { describe, expect, it } from 'vitest';
import { loadYaml } from './load.js';

const load = (s: string) => loadYaml(s, { path: 'x/init.sls' });

describe('anchor names as PyYAML reads them', () => {
  it("'&name: v' is an anchored empty key; '&x:y' anchors the scalar ':y'", () => {
    expect(load('lets:\n  &colorcolumn: join(1)\n')).toEqual({ lets: { None: 'join(1)' } });
    expect(load('x:\n  - &a: 1\n    b: 2\n')).toEqual({ x: [{ None: 1, b: 2 }] });
    expect(load('a: &x:y 1\n')).toEqual({ a: ':y 1' });
  });

  it('names with - and _, in flow collections, beside tags, and text that only looks like one', () => {
    expect(load('a: &x-1_b 1\nb: *x-1_b\n')).toEqual({ a: 1, b: 1 });
    expect(load('a: {k: &x 1, j: *x}\nb: [&y 2, *y]\n')).toEqual({ a: { k: 1, j: 1 }, b: [2, 2] });
    expect(load('a: &x !!str 1\n')).toEqual({ a: '1' });
    expect(load('a: "&x: 1"\nb: b&x:1\nc: |\n  &x: 1\n# &y: 2\n')).toEqual({
      a: '&x: 1',
      b: 'b&x:1',
      c: '&x: 1\n',
    });
  });

  it('a name with a character PyYAML refuses is an error that says where', () => {
    expect(() => load('a: 1\nb: &x.y 1\n')).toThrow(
      /line 2, column \d+: while scanning an anchor: expected alphabetic or numeric character, but found '\.'/,
    );
    expect(() => load('a: &x 1\nb: *x/y\n')).toThrow(/while scanning an alias: .* found '\/'/);
  });
});
