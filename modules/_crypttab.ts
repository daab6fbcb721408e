/**
 * The crypttab file as Salt's `cryptdev` module reads and writes it: a line is four fields
 * (`name device password options`, options may be left off), `#` lines are comments, and a
 * written entry is padded to Salt's columns (12, 44 and 22 wide).
 */
import { pySplit } from './_status-proc.js';

export const CRYPTTAB_KEYS = ['name', 'device', 'password', 'options'] as const;
export type CrypttabKey = (typeof CRYPTTAB_KEYS)[number];
export type CrypttabEntry = Record<CrypttabKey, string>;
export type CrypttabCriteria = Partial<CrypttabEntry>;

/** A crypttab line read as an entry, or undefined for a comment or a line of the wrong shape. */
export function parseCrypttabLine(line: string): CrypttabEntry | undefined {
  if (line.startsWith('#')) return undefined;
  const comps = pySplit(line);
  if (comps.length === 3) comps.push('');
  if (comps.length !== 4) return undefined;
  const [name, device, password, options] = comps as [string, string, string, string];
  return { name, device, password, options };
}

/** Python's `'{:<n}'.format(text)`: padded with spaces to n code points. */
const padTo = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - [...text].length));

/** Salt's line for an entry: the first three fields padded to their columns, with a newline. */
export function formatCrypttabLine(e: CrypttabEntry): string {
  return `${padTo(e.name, 12)} ${padTo(e.device, 44)} ${padTo(e.password, 22)} ${e.options}\n`;
}

/** Whether a parsed line has every value the criteria name. */
export function crypttabMatches(criteria: CrypttabCriteria, entry: CrypttabEntry): boolean {
  return CRYPTTAB_KEYS.every((k) => criteria[k] === undefined || criteria[k] === entry[k]);
}
