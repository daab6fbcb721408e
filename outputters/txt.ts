/**
 * `--out=txt` (`salt/output/txt.py`, also `--out=text`): for a dict, one `key: line` per
 * line of each text value (`key: value` with Python's `str()` for other values), keys in
 * their given order; text as is; anything else through `pprint.pformat`.
 */

import { pyRstrip, pySplitlines, pyStr, pyValue } from '../kernel/python/index.js';
import { pyPformat } from './py-pformat.js';
import { withPyTuples } from './py-tuples.js';
import { defineOutputter, type Outputter } from './types.js';

/** Python's `bytes.splitlines()`: breaks are `\n`, `\r` and `\r\n` only. */
function bytesSplitlines(b: Uint8Array): Uint8Array[] {
  const lines: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < b.length; i++) {
    if (b[i] !== 0x0a && b[i] !== 0x0d) continue;
    lines.push(b.subarray(start, i));
    if (b[i] === 0x0d && b[i + 1] === 0x0a) i++;
    start = i + 1;
  }
  if (start < b.length) lines.push(b.subarray(start));
  return lines;
}

/** The txt text for `data` (no trailing newline). */
export function renderTxt(shown: unknown): string {
  const data = withPyTuples(shown);
  const p = pyValue(data);
  let out = '';
  if (p.kind === 'dict') {
    for (const [key, value] of p.value) {
      const k = pyStr(key);
      const v = pyValue(value);
      if (v.kind === 'str') for (const line of pySplitlines(v.value)) out += `${k}: ${line}\n`;
      else if (v.kind === 'bytes')
        for (const line of bytesSplitlines(v.value)) out += `${k}: ${pyStr(line)}\n`;
      else out += `${k}: ${pyStr(value)}\n`;
    }
  } else if (p.kind === 'str') {
    out = `${p.value}\n`;
  } else {
    out = `${pyPformat(data)}\n`;
  }
  return pyRstrip(out);
}

/** `--out=txt`. */
export const txtOutputter: Outputter = defineOutputter({ name: 'txt', render: (data) => renderTxt(data) });
