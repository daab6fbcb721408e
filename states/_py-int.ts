/** Python's `int()` as Salt's zabbix states apply it to ids and flags, with its ValueError text. */
import { pyStr } from '../kernel/util.js';
import { pythonError } from '../modules/_py-exception.js';

/** Python's `int()` of a value (an int, or a string of one). */
export function pyInt(v: unknown): number {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  const s = String(v).trim();
  if (/^[-+]?\d+$/.test(s)) return Number(s);
  throw pythonError(
    'ValueError',
    `invalid literal for int() with base 10: ${pyStr(v) === s ? `'${s}'` : pyStr(v)}`,
  );
}
