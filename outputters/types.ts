/**
 * The outputter contract: Salt's `--out` printers (`salt/output/*.py`) as pure functions
 * from a return to the text the CLI prints.
 */

/** How the CLI asked for output. Mirrors the Salt opts the outputters read. */
export interface OutputOptions {
  /** Colour on (Salt's resolved `color` opt; see `resolveColor`). */
  color: boolean;
  /**
   * `--out-indent` / `output_indent`. Absent: each outputter's default (json 4, yaml block
   * style). A negative number (or `null`, as in a config file): json on one line, yaml in
   * flow style. `'pretty'` (config only): json indented by 4 with keys sorted.
   */
  indent?: number | 'pretty' | null;
  /** `--static`: the CLI renders one merged `{minion: ret, ...}` instead of one per minion. */
  static?: boolean;
  /** The highest retcode among the rendered returns; non-zero turns nested's keys red. */
  retcode?: number;
  /** Salt's `strip_colors` (default true): ESC in returned text prints as `?`. */
  stripColors?: boolean;
  /** `state_output` / `--state-output` (highstate outputter): `full` (default), `terse`, `mixed`, `changes`, their `_id` forms, `filter`. */
  stateOutput?: string;
  /** `state_verbose` / `--state-verbose` (default true): false hides succeeded states without changes. */
  stateVerbose?: boolean;
  /** `state_output_diff` (default false): hide succeeded states without changes. */
  stateOutputDiff?: boolean;
  /** `state_output_profile` (default true): each state's start time and duration, and the total run time. */
  stateOutputProfile?: boolean;
  /** `state_output_pct` (default false): success and failure percentages in the summary. */
  stateOutputPct?: boolean;
  /** `state_tabular` (default false): aligned terse lines, or a custom `str.format` string. */
  stateTabular?: boolean | string;
  /** `state_compress_ids` (default false): fold the names of one state ID into one line. */
  stateCompressIds?: boolean;
  /** `state_output_exclude` (`state_output: filter`): results (`True`, `False`, `None`) not shown. */
  stateOutputExclude?: string | readonly string[] | null;
  /** `state_output_terse` (`state_output: filter`): results shown in one line. */
  stateOutputTerse?: string | readonly string[] | null;
}

/** One outputter, as `--out=<name>` selects it. */
export interface Outputter {
  /** The `--out` name (`nested`, `json`, `yaml`, ...). */
  name: string;
  /**
   * The full text to print for `data`, without a trailing newline (the CLI adds one, and
   * prints nothing at all when the text is empty, as Salt does). Salt right-strips every
   * outputter's text; so does this.
   */
  render(data: unknown, opts: OutputOptions): string;
}

/**
 * Typing aid for outputters: returns its argument unchanged.
 * @example
 * export default defineOutputter({
 *   name: 'count',
 *   render: (data) => String(Object.keys(data as object).length),
 * });
 */
export const defineOutputter = <O extends Outputter>(o: O): O => o;
