/**
 * `--out=newline_values_only` (`salt/output/newline_values_only.py`): the values of the
 * top-level dict without the minion ids, list values spread one item a line, each as
 * Python's `str()`.
 */

import { pyRstrip, pyStr, pyValue } from '../kernel/python/index.js';
import { renderNested } from './nested.js';
import { defineOutputter, type OutputOptions, type Outputter } from './types.js';

/**
 * The newline_values_only text for `data` (no trailing newline). Salt's outputter fails on
 * anything but a dict and Salt then prints nested output instead; so does this.
 */
export function renderNewlineValuesOnly(data: unknown, opts: OutputOptions): string {
  const p = pyValue(data);
  if (p.kind !== 'dict') return renderNested(data, opts);
  const values: unknown[] = [];
  for (const [, value] of p.value) {
    const v = pyValue(value);
    if (v.kind === 'list' && Array.isArray(value)) values.push(...v.value);
    else values.push(value);
  }
  return pyRstrip(values.map(pyStr).join('\n'));
}

/** `--out=newline_values_only`. */
export const newlineValuesOnlyOutputter: Outputter = defineOutputter({
  name: 'newline_values_only',
  render: renderNewlineValuesOnly,
});
