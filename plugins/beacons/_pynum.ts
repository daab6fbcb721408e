/**
 * Python's `float()`/`int()` on a beacon's threshold as Salt's beacons apply them: the same
 * values are accepted, and a bad one throws Python's ValueError message.
 */

const FLOAT = /^[+-]?(?:\d[\d_]*(?:\.[\d_]*)?|\.\d[\d_]*)(?:e[+-]?\d+)?$|^[+-]?(?:inf|infinity|nan)$/i;

function repr(v: unknown): string {
  return typeof v === 'string' ? `'${v}'` : String(v);
}

/** Python's `float(v)`. */
export function pyFloat(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const s = typeof v === 'string' ? v.trim() : undefined;
  if (s === undefined)
    throw new Error(`float() argument must be a string or a real number, not '${typeof v}'`);
  if (!FLOAT.test(s)) throw new Error(`could not convert string to float: ${repr(v)}`);
  const low = s.toLowerCase().replace(/_/g, '');
  if (/inf/.test(low)) return low.startsWith('-') ? -Infinity : Infinity;
  return Number(low);
}

/** A `63%`-style threshold: the `%` signs removed, then `float()`. */
export function percentThreshold(v: unknown): number {
  return pyFloat(typeof v === 'string' ? v.replace(/%/g, '') : v);
}

/** psutil's `usage_percent(used, total, round_=1)`. */
export function usagePercent(used: number, total: number): number {
  return total > 0 ? Number(((used / total) * 100).toFixed(1)) : 0;
}
