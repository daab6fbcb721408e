/**
 * The compiler against Salt 3006.18's own answers for the SLS tree in fixtures/srv
 * (`fixtures/salt-3006.json` was written by `salt-call --local` over the same tree:
 * `state.show_sls`, `state.show_low_sls`, `state.show_highstate`, `state.show_lowstate` and
 * the compile errors of `state.sls ... test=True`). Equal means equal key order too.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileHighstate, compileSls, highToLow } from './index.js';
import { rootsRenderer, rootsSource } from './roots-source.js';

const SRV = fileURLToPath(new URL('./fixtures/srv', import.meta.url));
const SALT = JSON.parse(
  readFileSync(fileURLToPath(new URL('./fixtures/salt-3006.json', import.meta.url)), 'utf8'),
) as Record<string, unknown>;
const roots = { base: [SRV] };
const grains = { os: 'Debian' };
const source = rootsSource(roots);
const render = rootsRenderer({ roots, grains });
const TOP = {
  state_top: 'top.sls',
  top_file_merging_strategy: 'merge',
  env_order: [],
  default_top: 'base',
  state_top_saltenv: null,
  saltenv: null,
};

/** Same data and same key order, as Salt's JSON output shows them. */
function expectSame(ours: unknown, salt: unknown): void {
  expect(ours).toEqual(salt);
  expect(JSON.stringify(ours)).toBe(JSON.stringify(salt));
}

const keys = (prefix: string) =>
  Object.keys(SALT)
    .filter((k) => k.startsWith(prefix))
    .map((k) => k.slice(prefix.length));

describe('state.show_sls and state.show_low_sls as Salt 3006', () => {
  it.each(keys('show_sls '))('%s', async (mods) => {
    const { high, errors } = await compileSls(source, render, mods.split('+'), 'base');
    expectSame(errors.length > 0 ? errors : high, SALT[`show_sls ${mods}`]);
    const low = errors.length > 0 ? errors : highToLow(high, { raw: true }).chunks;
    expectSame(low, SALT[`show_low_sls ${mods}`]);
  });
});

describe('state.sls compile errors as Salt 3006', () => {
  it.each(keys('state.sls '))('%s', async (mod) => {
    const { high, errors } = await compileSls(source, render, [mod], 'base');
    expect(errors).toEqual([]);
    expectSame(highToLow(high).errors, SALT[`state.sls ${mod}`]);
  });
});

describe('the highstate as Salt 3006', () => {
  it('show_highstate and show_lowstate (grain and compound targets)', async () => {
    const minion = { id: 'py1', grains, pillar: {} };
    const { high, errors } = await compileHighstate(source, render, minion, TOP);
    expect(errors).toEqual([]);
    expectSame(high, SALT.show_highstate);
    const low = highToLow(high);
    expect(low.errors).toEqual([]);
    expectSame(low.chunks, SALT.show_lowstate);
  });

  it('highToLow leaves its input alone', async () => {
    const { high } = await compileSls(source, render, ['ext'], 'base');
    const before = JSON.stringify(high);
    highToLow(high);
    expect(JSON.stringify(high)).toBe(before);
  });
});
