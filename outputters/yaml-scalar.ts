/**
 * Scalar analysis for the yaml outputter, as libyaml 0.2.5 does it: which styles a scalar
 * may take (plain, single- or double-quoted, literal), and double-quoted escapes.
 */

export interface Analysis {
  /** UTF-8 length, which libyaml's simple-key limit counts. */
  bytes: number;
  multiline: boolean;
  flowPlain: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

export const isBreak = (c: string | undefined): boolean =>
  c === '\r' || c === '\n' || c === '\x85' || c === '\u2028' || c === '\u2029';
const isBlankZ = (c: string | undefined): boolean =>
  c === undefined || c === ' ' || c === '\t' || c === '\0' || isBreak(c);

/** libyaml's IS_PRINTABLE: LF, ASCII printables, U+00A0..U+D7FF, U+E000..U+FFFD but U+FEFF. */
export function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  if (cp === 0x0a || (cp >= 0x20 && cp <= 0x7e)) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  return cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff;
}

const FLOW_FIRST = '#,[]{}&*!|>\'"%@`';

export function analyze(cps: readonly string[], value: string): Analysis {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (cps.length === 0) {
    return { bytes, multiline: false, flowPlain: false, blockPlain: true, singleQuoted: true, block: false };
  }
  let blockInd = value.startsWith('---') || value.startsWith('...');
  let flowInd = blockInd;
  let lineBreaks = false;
  let special = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let precededByWs = true;
  let followedByWs = isBlankZ(cps[1]);
  let prevSpace = false;
  let prevBreak = false;
  const last = cps.length - 1;
  cps.forEach((c, i) => {
    if (i === 0) {
      if (FLOW_FIRST.includes(c)) {
        flowInd = true;
        blockInd = true;
      }
      if (c === '?' || c === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (c === '-' && followedByWs) {
        flowInd = true;
        blockInd = true;
      }
    } else {
      if (',?[]{}'.includes(c)) flowInd = true;
      if (c === ':') {
        flowInd = true;
        if (followedByWs) blockInd = true;
      }
      if (c === '#' && precededByWs) {
        flowInd = true;
        blockInd = true;
      }
    }
    if (!isPrintable(c)) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === last) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true;
      prevBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (i === last) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevSpace = false;
      prevBreak = true;
    } else {
      prevSpace = false;
      prevBreak = false;
    }
    precededByWs = isBlankZ(c);
    followedByWs = isBlankZ(cps[i + 2]);
  });
  const a: Analysis = {
    bytes,
    multiline: lineBreaks,
    flowPlain: true,
    blockPlain: true,
    singleQuoted: true,
    block: true,
  };
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) a.flowPlain = a.blockPlain = false;
  if (trailingSpace) a.block = false;
  if (breakSpace) a.flowPlain = a.blockPlain = a.singleQuoted = false;
  if (spaceBreak || special) a.flowPlain = a.blockPlain = a.singleQuoted = a.block = false;
  if (lineBreaks) a.flowPlain = a.blockPlain = false;
  if (flowInd) a.flowPlain = false;
  if (blockInd) a.blockPlain = false;
  return a;
}

const ESCAPES: Readonly<Record<string, string>> = {
  '\0': '0',
  '\x07': 'a',
  '\b': 'b',
  '\t': 't',
  '\n': 'n',
  '\v': 'v',
  '\f': 'f',
  '\r': 'r',
  '\x1b': 'e',
  '"': '"',
  '\\': '\\',
  '\x85': 'N',
  '\xa0': '_',
  '\u2028': 'L',
  '\u2029': 'P',
};

export function escapeChar(c: string): string {
  const named = ESCAPES[c];
  if (named) return `\\${named}`;
  const cp = c.codePointAt(0) ?? 0;
  const hex = cp.toString(16).toUpperCase();
  if (cp <= 0xff) return `\\x${hex.padStart(2, '0')}`;
  if (cp <= 0xffff) return `\\u${hex.padStart(4, '0')}`;
  return `\\U${hex.padStart(8, '0')}`;
}
