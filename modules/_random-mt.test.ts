import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { PyRandom, pySeedOf } from './_random-mt.js';
import random from './random.js';

const kw = (o: Record<string, unknown>) => ({ __kwarg__: true, ...o });

describe("Python's Mersenne Twister, seeded as random.seed seeds it", () => {
  it('gives the words CPython gives for random.seed(0) and random.seed(12345)', () => {
    // Python 3.11: random.seed(0); random.getrandbits(32) -> 3626764237, and so on
    expect(new PyRandom(0n).uint32()).toBe(3626764237);
    expect(new PyRandom(12345n).uint32()).toBe(1789368711);
    // a seed of several words, and bits drawn over several words
    expect(new PyRandom(2n ** 100n + 7n).getrandbits(70)).toBe(370455104258706617356n);
  });

  it('draws randrange values wider than one word', () => {
    expect(new PyRandom('x').randbelow(5000000000n)).toBe(2709212627n);
  });
});

describe('random.seed', () => {
  // each figure measured on Salt 3006.18 (salt-call --local, minion id "cmp")
  const ctx = fakeCtx({ id: 'cmp', grains: { id: 'cmp' } });
  const seed = async (...args: unknown[]) => (await invoke(random, 'seed', args, ctx)).value;

  it("seeds with the minion's id by default", async () => {
    expect(await seed()).toBe(4);
    expect(await seed(100)).toBe(89);
  });

  it('seeds with text, ints, bools and floats as Python hashes them', async () => {
    expect(await seed(10, kw({ hash: 'abc' }))).toBe(8);
    expect(await seed(10, kw({ hash: 123 }))).toBe(0);
    expect(await seed(10, kw({ hash: -7 }))).toBe(5);
    expect(await seed(10, kw({ hash: true }))).toBe(2);
    expect(await seed(10, kw({ hash: 1.5 }))).toBe(8);
    expect(await seed(5000000000, kw({ hash: 'x' }))).toBe(2709212627);
  });

  it("refuses an empty range and an unhashable seed as Python's errors", async () => {
    await expect(seed(0)).rejects.toMatchObject({
      name: 'ValueError',
      message: 'empty range for randrange()',
    });
    expect(() => pySeedOf([1])).toThrow(/The only supported seed types are/);
  });
});
