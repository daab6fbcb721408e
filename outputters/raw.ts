/**
 * `--out=raw` (`salt/output/raw.py`): Python's `str()` of the data, e.g. `{'m1': True}`.
 */
import { pyStr } from '../kernel/python/repr.js';
import { pyRstrip } from '../kernel/python/value.js';
import { defineOutputter, type Outputter } from './types.js';

/** The raw text for `data` (no trailing newline). */
export function renderRaw(data: unknown): string {
  return pyRstrip(pyStr(data));
}

/** `--out=raw`. */
export const rawOutputter: Outputter = defineOutputter({ name: 'raw', render: (data) => renderRaw(data) });
