import { describe, expect, it } from 'vitest';
import { type CompoundNode, parseCompound } from './compound.js';

/** The tree as a fully parenthesised string, to read precedence. */
function show(n: CompoundNode): string {
  if (n.op === 'leaf') return n.word;
  if (n.op === 'not') return `(not ${show(n.operand)})`;
  return `(${show(n.left)} ${n.op} ${show(n.right)})`;
}

describe('parseCompound: Python precedence, not > and > or', () => {
  it.each([
    ['web*', 'web*'],
    ['G@env:prod and not L@m2 or E@m4', '((G@env:prod and (not L@m2)) or E@m4)'],
    ['a or b and c', '(a or (b and c))'],
    ['not a and b', '((not a) and b)'],
    ['not ( a or b )', '(not (a or b))'],
    ['( a or b ) and c', '((a or b) and c)'],
    ['a not b', '(a and (not b))'],
    ['not a or not b', '((not a) or (not b))'],
    ['a or b or c', '((a or b) or c)'],
  ])('%s', (expr, expected) => {
    expect(show(parseCompound(expr))).toBe(expected);
  });

  it('accepts a list of words', () => {
    expect(show(parseCompound(['G@os:Debian', 'and', 'web*']))).toBe('(G@os:Debian and web*)');
  });

  it('reads prefixes and per-word delimiters', () => {
    const t = parseCompound('G|@roles|web');
    expect(t).toMatchObject({ op: 'leaf', engine: 'G', delimiter: '|', pattern: 'roles|web' });
    expect(parseCompound('X')).toMatchObject({ engine: undefined, pattern: 'X' });
    expect(parseCompound('not L@m2')).toMatchObject({ op: 'not', operand: { engine: 'L', negated: true } });
  });

  it('splices nodegroups in parentheses', () => {
    const nodegroups = { a: 'm1 or m2', b: ['m3', 'm4'], c: 'N@a and N@b' };
    expect(show(parseCompound('N@a and m3', { nodegroups }))).toBe('((m1 or m2) and m3)');
    expect(show(parseCompound('N@c', { nodegroups }))).toBe('((m1 or m2) and L@m3,m4)');
  });

  it.each([
    ['', 'it is empty'],
    ['   ', 'it is empty'],
    ['and a', 'cannot begin with "and"'],
    ['or a', 'cannot begin with "or"'],
    ['( and a )', '"and" cannot follow "("'],
    ['( a or b', 'a "(" is not closed'],
    ['a or b )', 'a ")" has no matching "("'],
    ['a and', 'it ends where a target was expected'],
    ['a b', 'an operator (and, or) was expected before "b"'],
    ['a and or b', 'a target was expected before "or"'],
    ['( )', '"( )" is empty'],
    ['R@%cluster', 'range targets (R@) are not supported'],
    ['Z@foo', 'unknown target type Z@'],
    ['G@', 'has no pattern after G@'],
    ['N@nope', 'Node group nope unavailable'],
    ['not', 'it ends where a target was expected'],
    // Salt inserts "and" before a "not" that follows an operand, so "not not" never parses
    ['a and not not b', 'a target was expected before "and"'],
  ])('%j is an error: %s', (expr, why) => {
    expect(() => parseCompound(expr)).toThrow(why);
  });

  it('names the expression in the error', () => {
    expect(() => parseCompound('( G@os:x')).toThrow(/^Invalid compound target "\( G@os:x": unbalanced/);
  });
});
