/**
 * What the highstate outputter reads from the options (Salt's `__opts__` in
 * salt/output/highstate.py), resolved once per render with Salt's config defaults.
 */
import { type ColorTable, getColors } from '../colors.js';
import type { OutputOptions } from '../types.js';

/** The resolved highstate options and colour table. */
export interface HighstateContext {
  colors: ColorTable;
  /** The options as given, for the nested outputter the changes print with. */
  opts: OutputOptions;
  /** `state_output`, lower-cased. */
  stateOutput: string;
  verbose: boolean;
  diff: boolean;
  profile: boolean;
  pct: boolean;
  tabular: boolean | string;
  compressIds: boolean;
  stripColors: boolean;
  exclude: string | readonly string[] | null;
  terse: string | readonly string[] | null;
}

/** The context for one render of `opts`. */
export function highstateContext(opts: OutputOptions): HighstateContext {
  return {
    colors: getColors(opts.color),
    opts,
    stateOutput: (opts.stateOutput ?? 'full').toLowerCase(),
    verbose: opts.stateVerbose ?? true,
    diff: opts.stateOutputDiff ?? false,
    profile: opts.stateOutputProfile ?? true,
    pct: opts.stateOutputPct ?? false,
    tabular: opts.stateTabular ?? false,
    compressIds: opts.stateCompressIds ?? false,
    stripColors: opts.stripColors ?? true,
    exclude: opts.stateOutputExclude === undefined ? [] : opts.stateOutputExclude,
    terse: opts.stateOutputTerse === undefined ? [] : opts.stateOutputTerse,
  };
}

/** A state return as a mutable record (the outputter fills in defaults as Salt does). */
export type StateRet = Record<string, unknown>;

/** Whether `v` is a dict (a plain object). */
export function isDict(v: unknown): v is StateRet {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
