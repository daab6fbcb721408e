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
