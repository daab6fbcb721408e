/**
 * Salt's terminal colours (`salt.utils.color.get_colors`, built from
 * `salt.utils.textformat.TextFormat`): every code starts with a reset (`0;`), and ENDC is
 * `ESC[0;0m`.
 */

/** The colour table with colour on. */
export const SALT_COLORS = Object.freeze({
  BLACK: '\x1b[0;30m',
  DARK_GRAY: '\x1b[0;1;30m',
  RED: '\x1b[0;31m',
  LIGHT_RED: '\x1b[0;1;31m',
  GREEN: '\x1b[0;32m',
  LIGHT_GREEN: '\x1b[0;1;32m',
  YELLOW: '\x1b[0;33m',
  LIGHT_YELLOW: '\x1b[0;1;33m',
  BLUE: '\x1b[0;34m',
  LIGHT_BLUE: '\x1b[0;1;34m',
  MAGENTA: '\x1b[0;35m',
  LIGHT_MAGENTA: '\x1b[0;1;35m',
  CYAN: '\x1b[0;36m',
  LIGHT_CYAN: '\x1b[0;1;36m',
  LIGHT_GRAY: '\x1b[0;37m',
  WHITE: '\x1b[0;1;37m',
  DEFAULT_COLOR: '\x1b[0;39m',
  ENDC: '\x1b[0;0m',
});

export type ColorName = keyof typeof SALT_COLORS;
export type ColorTable = Readonly<Record<ColorName, string>>;

const NO_COLORS: ColorTable = Object.freeze(
  Object.fromEntries(Object.keys(SALT_COLORS).map((k) => [k, ''])) as Record<ColorName, string>,
);

/**
 * `get_colors(use)`: the table, all empty strings when `use` is false, or every colour but
 * ENDC replaced by one named colour when `use` is a colour name.
 */
export function getColors(use: boolean | ColorName = true): ColorTable {
  if (use === false) return NO_COLORS;
  if (use === true) return SALT_COLORS;
  const one = SALT_COLORS[use];
  const table = Object.fromEntries(
    Object.keys(SALT_COLORS).map((k) => [k, k === 'ENDC' ? SALT_COLORS.ENDC : one]),
  ) as Record<ColorName, string>;
  return Object.freeze(table);
}

/** What decides colour, as `salt.output.get_printout` reads it. */
export interface ColorChoice {
  /** `color` from the config file, if it sets one. */
  configColor?: boolean;
  /** `--force-color`. */
  forceColor?: boolean;
  /** `--no-color`. */
  noColor?: boolean;
  /** Whether stdout is a terminal (`process.stdout.isTTY`). */
  isTTY: boolean;
  /** `process.platform`; Salt never colours on Windows unless forced. */
  platform?: string;
}

/**
 * Salt's colour decision: `--force-color` wins; then `--no-color` or Windows turn it off;
 * then a `color` set in the config is kept; else colour is on only for a terminal.
 * @example resolveColor({ isTTY: process.stdout.isTTY === true, noColor: opts.noColor })
 */
export function resolveColor(choice: ColorChoice): boolean {
  if (choice.forceColor) return true;
  if (choice.noColor || choice.platform === 'win32') return false;
  if (choice.configColor !== undefined) return choice.configColor;
  return choice.isTTY;
}
