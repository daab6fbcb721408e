/** The highstate options the CLIs hand the outputter: config values, then the flags. */
import { describe, expect, it } from 'vitest';
import { stateOutputOptions } from './state-output.js';

describe('stateOutputOptions', () => {
  it("has Salt's defaults for an empty config", () => {
    expect(stateOutputOptions({ extra: {} })).toEqual({
      stateOutput: 'full',
      stateVerbose: true,
      stateOutputDiff: false,
      stateOutputProfile: true,
      stateTabular: false,
      stateOutputPct: undefined,
      stateCompressIds: undefined,
      stateOutputExclude: undefined,
      stateOutputTerse: undefined,
    });
  });

  it('reads the config, the flags win', () => {
    const config = {
      extra: {
        state_output: 'terse',
        state_verbose: false,
        state_output_pct: true,
        state_compress_ids: true,
        state_output_exclude: 'True,None',
      },
    };
    const fromConfig = stateOutputOptions(config);
    expect(fromConfig).toMatchObject({
      stateOutput: 'terse',
      stateVerbose: false,
      stateOutputPct: true,
      stateCompressIds: true,
      stateOutputExclude: 'True,None',
    });
    expect(
      stateOutputOptions(config, { stateOutput: 'mixed_id', stateVerbose: 'True', outputDiff: true }),
    ).toMatchObject({ stateOutput: 'mixed_id', stateVerbose: true, stateOutputDiff: true });
    expect(
      stateOutputOptions({ extra: {} }, { state_output: 'changes', state_verbose: 'false' }),
    ).toMatchObject({
      stateOutput: 'changes',
      stateVerbose: false,
    });
  });
});
