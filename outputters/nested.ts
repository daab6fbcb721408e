/**
 * Salt's default outputter (`salt/output/nested.py`): dicts as `key:` lines with values
 * four spaces deeper and a `----------` line before every dict below the top, list items
 * as `- item` (`|_` before a nested list or dict), text line by line, and None/True/False
 * and numbers as Python prints them.
 *
 * Colours: keys and `----------` cyan, text and list markers green, None/bools/numbers
 * light yellow; with a non-zero retcode keys, `----------` and list markers turn red.
 */

import {
  pyFloatRepr,
  pyIntRepr,
  pyRstrip,
  pySortedKeys,
  pySplitlines,
  pyStr,
  pyValue,
} from '../kernel/python/index.js';
import { type ColorTable, getColors } from './colors.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';

const SEPARATOR = '----------';

interface NestState {
  colors: ColorTable;
  failed: boolean;
  stripColors: boolean;
  lines: string[];
}

function line(st: NestState, indent: number, color: string, msg: string, prefix = '', suffix = ''): void {
  st.lines.push(`${' '.repeat(indent)}${color}${prefix}${msg}${st.colors.ENDC}${suffix}`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decodeBytes(b: Uint8Array): string | undefined {
  try {
    return utf8.decode(b);
  } catch {
    return undefined;
  }
}

/** Key order: Python's sorted(); keys Python cannot compare are sorted as their str(). */
function orderedEntries(
  entries: ReadonlyArray<readonly [unknown, unknown]>,
): Array<readonly [string, unknown]> {
  const keys = pySortedKeys(entries.map(([k]) => k));
  if (keys) {
    const byKey = new Map<unknown, unknown>(entries);
    return keys.map((k) => [pyStr(k), byKey.get(k)] as const);
  }
  const asText = new Map<string, unknown>(entries.map(([k, v]) => [pyStr(k), v]));
  return (pySortedKeys([...asText.keys()]) ?? []).map((k) => [k, asText.get(k)] as const);
}

function display(st: NestState, ret: unknown, indent: number, prefix: string): void {
  let p = pyValue(ret);
  if (p.kind === 'bytes') {
    const text = decodeBytes(p.value);
    if (text !== undefined) p = { kind: 'str', value: text };
  }
  const c = st.colors;
  switch (p.kind) {
    case 'none':
      line(st, indent, c.LIGHT_YELLOW, 'None', prefix);
      return;
    case 'bool':
      line(st, indent, c.LIGHT_YELLOW, p.value ? 'True' : 'False', prefix);
      return;
    case 'int':
      line(st, indent, c.LIGHT_YELLOW, pyIntRepr(p.value), prefix);
      return;
    case 'float':
      line(st, indent, c.LIGHT_YELLOW, pyFloatRepr(p.value), prefix);
      return;
    case 'str': {
      const pad = ' '.repeat(prefix.length);
      pySplitlines(p.value).forEach((text, i) => {
        const shown = st.stripColors ? text.replaceAll('\x1b', '?') : text;
        line(st, indent, c.GREEN, shown, i === 0 ? prefix : pad);
      });
      return;
    }
    case 'list': {
      const color = st.failed ? c.RED : c.GREEN;
      for (const item of p.value) {
        const kind = pyValue(item).kind;
        if (kind === 'list' || kind === 'dict') {
          line(st, indent, color, '|_');
          display(st, item, indent + 2, kind === 'dict' ? '' : '- ');
        } else {
          display(st, item, indent, '- ');
        }
      }
      return;
    }
    case 'dict': {
      const color = st.failed ? c.RED : c.CYAN;
      if (indent) line(st, indent, color, SEPARATOR);
      for (const [key, value] of orderedEntries(p.value)) {
        line(st, indent, color, key, prefix, ':');
        display(st, value, indent + 4, '');
      }
      return;
    }
    default:
      // Python's nested prints nothing for other types (datetimes, undecodable bytes, ...).
      return;
  }
}

/**
 * The nested text for `data`, as `salt` prints it (no trailing newline); `baseIndent` is
 * Salt's `nested_indent` (the highstate outputter prints changes 14 columns in).
 */
export function renderNested(data: unknown, opts: OutputOptions, baseIndent = 0): string {
  const st: NestState = {
    colors: getColors(opts.color),
    failed: (opts.retcode ?? 0) !== 0,
    stripColors: opts.stripColors ?? true,
    lines: [],
  };
  display(st, data, baseIndent, '');
  return pyRstrip(st.lines.join('\n'));
}

/** `--out=nested`, Salt's default. */
export const nestedOutputter: Outputter = defineOutputter({ name: 'nested', render: renderNested });
