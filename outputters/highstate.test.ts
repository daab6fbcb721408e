/**
 * The highstate outputter against Salt 3006.18's: every case in
 * highstate/salt-3006.fixtures.json is an input, the options, and the text Salt's
 * `salt.output.out_format(data, 'highstate', opts)` printed for them (recorded by running
 * Salt's outputter in Python; CI has no Salt).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderHighstate } from './highstate.js';
import type { OutputOptions } from './types.js';

interface SaltCase {
  name: string;
  opts: Record<string, unknown>;
  data: unknown;
  out: string;
}

const CASES = JSON.parse(
  readFileSync(new URL('./highstate/salt-3006.fixtures.json', import.meta.url), 'utf8'),
) as SaltCase[];

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
};

/** Salt's opts as OutputOptions. */
function toOutputOptions(salt: Record<string, unknown>): OutputOptions {
  const opts: Record<string, unknown> = { color: false };
  for (const [k, v] of Object.entries(salt)) opts[OPTION_NAMES[k] ?? k] = v;
  return opts as unknown as OutputOptions;
}

describe('highstate outputter, as Salt 3006.18 prints', () => {
  it.each(CASES.map((c, i) => [`${i} ${c.name} ${JSON.stringify(c.opts)}`, c] as const))('%s', (_, c) => {
    expect(renderHighstate(structuredClone(c.data), toOutputOptions(c.opts))).toBe(c.out);
  });
});
