/**
 * `--out=raw` (`salt/output/raw.py`): Python's `str()` of the data, e.g. `{'m1': True}`.
 */
import { pyRstrip, pyStr } from '../kernel/python/index.js';
import { withPyTuples } from './py-tuples.js';
import { defineOutputter, type Outputter } from './types.js';

/** The raw text for `data` (no trailing newline). */
export function renderRaw(data: unknown): string {
  return pyRstrip(pyStr(withPyTuples(data)));
}

/** `--out=raw`. */
export const rawOutputter: Outputter = defineOutputter({ name: 'raw', render: (data) => renderRaw(data) });
