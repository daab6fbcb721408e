import { describe, expect, it } from 'vitest';
import { pkgAggregate } from './_pkg-aggregate.js';

const chunk = (id: string, fun: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  state: 'pkg',
  __id__: id,
  name: id,
  fun,
  ...extra,
});

describe('pkg.mod_aggregate', () => {
  it("takes the packages of the same function's chunks not run yet, and marks them", () => {
    const low = { ...chunk('a', 'installed'), __agg__: true };
    const b = chunk('b', 'installed', { version: '1.2' });
    const c = chunk('c', 'installed', { pkgs: ['c1', { c2: '3' }] });
    const held = chunk('d', 'installed', { hold: true });
    const ran = chunk('e', 'installed');
    const other = chunk('f', 'removed');
    const repo = chunk('g', 'installed', { fromrepo: 'bookworm-backports' });
    const file: Record<string, unknown> = { state: 'file', __id__: 'h', name: 'h', fun: 'managed' };
    const chunks = [low, b, c, held, ran, other, repo, file];
    const out = pkgAggregate(low, chunks, { 'pkg_|-e_|-e_|-installed': {} });
    expect(out.pkgs).toEqual([{ b: '1.2' }, 'c1', { c2: '3' }]);
    expect([b, c].map((x) => x.__agg__)).toEqual([true, true]);
    // the absorbed chunk runs later without its version, as in Salt
    expect('version' in b).toBe(false);
    expect([held, ran, other, repo, file].some((x) => '__agg__' in x)).toBe(false);
  });

  it('never mixes sources with named packages: the first kind found wins', () => {
    const low = { ...chunk('a', 'installed', { sources: [{ x: '/x.deb' }] }), __agg__: true };
    const named = chunk('n', 'installed');
    const src = chunk('s', 'installed', { sources: [{ y: '/y.deb' }] });
    const out = pkgAggregate(low, [low, src, named], {});
    expect(out.sources).toEqual([{ x: '/x.deb' }, { y: '/y.deb' }]);
    expect('pkgs' in out).toBe(false);
    expect('__agg__' in named).toBe(false);
    // named first: the sources chunk stays on its own
    const low2 = { ...chunk('a', 'installed'), __agg__: true };
    const n2 = chunk('n', 'installed');
    const s2 = chunk('s', 'installed', { sources: [{ y: '/y.deb' }] });
    expect(pkgAggregate(low2, [low2, n2, s2], {}).pkgs).toEqual(['n']);
    expect('__agg__' in s2).toBe(false);
  });

  it('leaves functions other than installed, latest, removed and purged alone', () => {
    const low = { ...chunk('a', 'held'), __agg__: true };
    const b = chunk('b', 'held');
    expect(pkgAggregate(low, [low, b], {})).toEqual(low);
    expect('__agg__' in b).toBe(false);
  });
});
