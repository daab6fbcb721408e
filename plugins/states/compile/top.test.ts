/**
 * The state top file against Salt 3006.18's `state.show_top` for three saltenvs' top files
 * (fixtures/tops: base includes another top file and names `{prod: sls}` entries; dev and
 * prod have sections for other envs; prod targets by grain and compound), under each merging
 * strategy, `env_order`, `default_top`, `state_top_saltenv` and a call's `saltenv`. The
 * expected answers were written down from `salt-call --local state.show_top`.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileTop, type TopOptions } from './index.js';
import { rootsRenderer, rootsSource } from './roots-source.js';
import { verifyTops } from './top.js';

const dir = (env: string) => fileURLToPath(new URL(`./fixtures/tops/${env}`, import.meta.url));
const roots = { base: [dir('base')], dev: [dir('dev')], prod: [dir('prod')] };
const grains = { os: 'Debian' };
const source = rootsSource(roots);
const render = rootsRenderer({ roots, grains });
const DEFAULTS: TopOptions = {
  state_top: 'salt://top.sls',
  top_file_merging_strategy: 'merge',
  env_order: [],
  default_top: 'base',
  state_top_saltenv: null,
  saltenv: null,
};

const CASES: Array<[string, Partial<TopOptions>, Record<string, string[]>]> = [
  [
    'merge',
    {},
    { base: ['b1', 'common', 'b2', 'b_extra'], dev: ['d_from_base'], prod: ['p_via_env', 'p1', 'p2', 'p3'] },
  ],
  [
    'same',
    { top_file_merging_strategy: 'same' },
    { base: ['b1', 'common', 'b2', 'b_extra'], dev: ['d1', 'd2'], prod: ['p1', 'p2', 'p3'] },
  ],
  [
    'merge_all',
    { top_file_merging_strategy: 'merge_all' },
    {
      base: ['b1', 'common', 'b_from_dev', 'b_from_prod', 'b2', 'b_extra'],
      dev: ['d_from_base', 'd1', 'd2'],
      prod: ['p_via_env', 'p1', 'p2', 'p3'],
      qa: ['qa1'],
    },
  ],
  ['saltenv_dev', { saltenv: 'dev' }, { dev: ['d1', 'd2'] }],
  ['state_top_saltenv_prod', { state_top_saltenv: 'prod' }, { prod: ['p1', 'p2', 'p3'] }],
  [
    'env_order',
    { env_order: ['prod', 'dev', 'base'] },
    { base: ['b1', 'common', 'b2', 'b_extra'], dev: ['d_from_base'], prod: ['p_via_env', 'p1', 'p2', 'p3'] },
  ],
  [
    'same_default_dev',
    { top_file_merging_strategy: 'same', default_top: 'dev' },
    { base: ['b1', 'common', 'b2', 'b_extra'], dev: ['d1', 'd2'], prod: ['p1', 'p2', 'p3'] },
  ],
  [
    'merge_all_env_order',
    { top_file_merging_strategy: 'merge_all', env_order: ['dev', 'prod', 'base'] },
    {
      dev: ['d1', 'd_from_base', 'd2'],
      prod: ['p_via_env', 'p1', 'p2', 'p3'],
      base: ['b_from_dev', 'common', 'b_from_prod', 'b1', 'b2', 'b_extra'],
      qa: ['qa1'],
    },
  ],
];

describe('compileTop as Salt 3006 state.show_top', () => {
  it.each(CASES)('%s', async (_name, opts, expected) => {
    const res = await compileTop(source, render, { id: 'py1', grains, pillar: {} }, { ...DEFAULTS, ...opts });
    expect(res.errors).toEqual([]);
    expect(res.matches).toEqual(expected);
    expect(JSON.stringify(res.matches)).toBe(JSON.stringify(expected));
  });

  it('a minion no target matches gets no matches', async () => {
    const res = await compileTop(source, render, { id: 'zz', grains: {}, pillar: {} }, DEFAULTS);
    expect(res.matches).toEqual({ base: ['b1', 'common'], dev: ['d_from_base'] });
  });

  it("verify_tops' errors, in Salt's words", () => {
    expect(
      verifyTops({
        base: { '*': 'notalist', web: ['', { match: '' }, 'ok'] },
        dev: 'x',
      }),
    ).toEqual([
      'Malformed topfile (state declarations not formed as a list)',
      'Environment base contains an empty sls index',
      "Improperly formatted top file matcher in saltenv {'match': ''}:  file",
      'The top file matches for saltenv dev are not formatted as a dict',
    ]);
  });
});
