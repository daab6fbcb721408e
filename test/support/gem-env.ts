/**
 * Vitest hooks for the gem module's and states' tests: the throwaway gems of
 * tools/gem-fixture.ts built before the file's tests, their environment (GEM_HOME, GEMRC, ...)
 * set on this process (so `gem` run without `gem_bin` works in the temp dir alone), and both
 * undone after. Skips nothing itself: `GEM_MISSING` says why a suite should skip.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';
import { which } from '../../modules/_which.js';
import { type GemFixture, makeGemFixture } from '../../tools/gem-fixture.js';

/** Why gem tests cannot run here, or false when they can. */
export const GEM_MISSING: string | false = which('gem')
  ? false
  : "needs Ruby's gem program (Debian: apt-get install ruby)";

/** Registers the hooks; the fixture is readable once the tests run. */
export function useGemFixture(): { readonly fx: GemFixture } {
  let fx: GemFixture | undefined;
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    if (GEM_MISSING) return;
    fx = makeGemFixture();
    for (const [k, v] of Object.entries(fx.env)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  }, 120_000);
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    if (fx) rmSync(fx.dir, { recursive: true, force: true });
  });
  return {
    get fx(): GemFixture {
      if (!fx) throw new Error('the gem fixture is made in beforeAll');
      return fx;
    },
  };
}
