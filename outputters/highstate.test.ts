/**
 * The highstate outputter against Salt 3006.18's: every case in
 * highstate/salt-3006.fixtures.json is an input, the options, and the text Salt's
 * `salt.output.out_format(data, 'highstate', opts)` printed for them (recorded by running
 * Salt's outputter in Python; CI has no Salt).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadBuiltinOutputter } from './builtin.js';
import { highstateOutputter, renderHighstate } from './highstate.js';
import { getOutputter } from './registry.js';
import type { OutputOptions } from './types.js';

interface Fixtures {
  inputs: Record<string, unknown>;
  outputs: string[];
  /** [input name, Salt opts, index into outputs] */
  cases: Array<[string, Record<string, unknown>, number]>;
  big: { sha256: string; length: number };
}

const FIX = JSON.parse(
  readFileSync(new URL('./highstate/salt-3006.fixtures.json', import.meta.url), 'utf8'),
) as Fixtures;

const OPTION_NAMES: Readonly<Record<string, keyof OutputOptions>> = {
  color: 'color',
  state_output: 'stateOutput',
  state_verbose: 'stateVerbose',
  state_output_diff: 'stateOutputDiff',
  state_output_profile: 'stateOutputProfile',
  state_output_pct: 'stateOutputPct',
  state_tabular: 'stateTabular',
  state_compress_ids: 'stateCompressIds',
  state_output_exclude: 'stateOutputExclude',
  state_output_terse: 'stateOutputTerse',
  strip_colors: 'stripColors',
};

/** Salt's opts as OutputOptions. */
function toOutputOptions(salt: Record<string, unknown>): OutputOptions {
  const opts: Record<string, unknown> = { color: false };
  for (const [k, v] of Object.entries(salt)) opts[OPTION_NAMES[k] ?? k] = v;
  return opts as unknown as OutputOptions;
}

/** The 1,000-state return the big case was recorded over (as the fixture's generator builds it). */
function bigReturn(): unknown {
  const states: Record<string, unknown> = {};
  for (let i = 0; i < 1000; i++) {
    states[`test_|-s${i}_|-s${i}_|-nop`] = {
      name: `s${i}`,
      changes: i % 3 === 0 ? { n: i } : {},
      result: i % 7 !== 0,
      comment: 'ok',
      __run_num__: 999 - i,
      duration: 0.5 + i,
      start_time: '00:00:00.000000',
      __id__: `s${i}`,
      __sls__: 'big',
    };
  }
  return { local: states };
}

describe('highstate outputter, as Salt 3006.18 prints', () => {
  it.each(FIX.cases.map((c, i) => [`${i} ${c[0]} ${JSON.stringify(c[1])}`, c] as const))(
    '%s',
    (_, [input, saltOpts, out]) => {
      const data = structuredClone(FIX.inputs[input]);
      expect(renderHighstate(data, toOutputOptions(saltOpts))).toBe(FIX.outputs[out]);
    },
  );

  it('renders 1,000 states as Salt does, in well under a second', () => {
    const data = bigReturn();
    const t0 = performance.now();
    const text = renderHighstate(data, { color: false, stateOutput: 'mixed' });
    const ms = performance.now() - t0;
    expect(text.length).toBe(FIX.big.length);
    expect(createHash('sha256').update(text).digest('hex')).toBe(FIX.big.sha256);
    expect(ms).toBeLessThan(500);
  });

  it('is the outputter registered as highstate', async () => {
    expect((await loadBuiltinOutputter('highstate'))?.name).toBe('highstate');
    expect(getOutputter('highstate')).toBe(highstateOutputter);
  });
});
