/**
 * The highstate outputter's options as Salt's CLIs (`salt`, `salt-call`, `salt-run`) hand
 * them over: the config's `state_output`, `state_verbose`, `state_output_diff`,
 * `state_output_profile`, `state_output_pct`, `state_tabular`, `state_compress_ids`,
 * `state_output_exclude`, `state_output_terse`, overridden by `--state-output`,
 * `--state-verbose` and `--output-diff` (salt/utils/parsers.py `OutputOptionsMixIn`).
 */
import type { ConfigWithExtra } from '../kernel/index.js';
import type { OutputOptions } from '../outputters/types.js';
import { statesOptions } from '../plugins/states/options.js';

/** The state output flags as commander parsed them (`--state_output` is Salt's other spelling). */
export interface StateOutputFlags {
  stateOutput?: string;
  state_output?: string;
  /** `--state-verbose`: `True`/`true`/`False`/`false` (other text counts as true, as in Salt). */
  stateVerbose?: string | boolean;
  state_verbose?: string | boolean;
  outputDiff?: boolean;
}

/** The flags to add to a commander program (`hidden`: Salt's underscore spellings). */
export const STATE_OUTPUT_FLAGS: ReadonlyArray<{ flags: string; description: string; hidden?: boolean }> = [
  {
    flags: '--state-output <mode>',
    description: "override state_output: 'full', 'terse', 'mixed', 'changes' or 'filter' (and _id forms)",
  },
  { flags: '--state_output <mode>', description: 'same as --state-output', hidden: true },
  { flags: '--state-verbose <bool>', description: 'override state_verbose: True or False' },
  { flags: '--state_verbose <bool>', description: 'same as --state-verbose', hidden: true },
];

function verbose(v: string | boolean): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'False' || v === 'false') return false;
  return v !== '';
}

function extraOf<T>(config: ConfigWithExtra, key: string, ok: (v: unknown) => v is T): T | undefined {
  const v = config.extra?.[key];
  return ok(v) ? v : undefined;
}

const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isStringOrList = (v: unknown): v is string | string[] =>
  typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'));

/** The highstate fields of OutputOptions for `config` and the CLI `flags`. */
export function stateOutputOptions(
  config: ConfigWithExtra,
  flags: StateOutputFlags = {},
): Partial<OutputOptions> {
  const o = statesOptions.read(config);
  const stateOutput = flags.stateOutput ?? flags.state_output;
  const stateVerbose = flags.stateVerbose ?? flags.state_verbose;
  const tabular = config.extra?.state_tabular;
  return {
    stateOutput: stateOutput ?? o.state_output,
    stateVerbose: stateVerbose === undefined ? o.state_verbose : verbose(stateVerbose),
    stateOutputDiff: flags.outputDiff || o.state_output_diff,
    stateOutputProfile: o.state_output_profile,
    stateTabular: typeof tabular === 'string' ? tabular : o.state_tabular,
    stateOutputPct: extraOf(config, 'state_output_pct', isBool),
    stateCompressIds: extraOf(config, 'state_compress_ids', isBool),
    stateOutputExclude: extraOf(config, 'state_output_exclude', isStringOrList),
    stateOutputTerse: extraOf(config, 'state_output_terse', isStringOrList),
  };
}
