/**
 * One word of a compound target: Salt's `parse_target` (`TARGET_REX`). `G@os:Debian` is engine
 * `G`, pattern `os:Debian`; `G|@roles|web` sets the delimiter `|` (grain and pillar engines
 * only); a word without a known `X@` prefix is a glob on the minion id.
 */

/** The target engines a compound word may name, with the `tgt_type` each stands for. */
export const ENGINES = {
  G: 'grain',
  P: 'grain_pcre',
  I: 'pillar',
  J: 'pillar_pcre',
  L: 'list',
  N: 'nodegroup',
  S: 'ipcidr',
  E: 'pcre',
  R: 'range',
} as const;

export type Engine = keyof typeof ENGINES;

export interface TargetWord {
  engine: Engine | undefined;
  delimiter: string | undefined;
  pattern: string;
}

const TARGET_RE = /^(?:(G|P|I|J|L|N|S|E|R)((?<=G|P|I|J).)?@)?(.+)$/;

/** Splits a word into engine, optional delimiter and pattern, as Salt's `parse_target` does. */
export function parseTargetWord(word: string): TargetWord {
  const m = TARGET_RE.exec(word);
  if (!m) return { engine: undefined, delimiter: undefined, pattern: word };
  return { engine: m[1] as Engine | undefined, delimiter: m[2], pattern: m[3] as string };
}

/** The compound operators. */
export const OPERATORS: ReadonlySet<string> = new Set(['and', 'or', 'not', '(', ')']);
