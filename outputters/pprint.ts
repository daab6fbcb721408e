/**
 * `--out=pprint` (`salt/output/pprint_out.py`): Python's `pprint.pformat(data)`, with
 * `--out-indent N` (N >= 0) as pprint's indent per level.
 */

import { pyRstrip } from '../kernel/python/index.js';
import { renderNested } from './nested.js';
import { pyPformat } from './py-pformat.js';
import { withPyTuples } from './py-tuples.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';

/** The pprint text for `data` (no trailing newline). */
export function renderPprint(data: unknown, opts: OutputOptions): string {
  const { indent } = opts;
  // Salt compares output_indent with 0: `pretty` or null raise there and Salt falls back to nested.
  if (indent === null || indent === 'pretty') return renderNested(data, opts);
  return pyRstrip(pyPformat(withPyTuples(data), indent !== undefined && indent >= 0 ? indent : 1));
}

/** `--out=pprint`. */
export const pprintOutputter: Outputter = defineOutputter({ name: 'pprint', render: renderPprint });
