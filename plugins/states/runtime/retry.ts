/**
 * The `retry` global argument (Salt's `State.verify_retry_data` in `salt/state.py`): `True`
 * for the defaults, or a dict of `attempts`, `until`, `interval` and `splay`; a value of the
 * wrong type falls back to its default with a warning.
 */
import type { UnitLogger } from '../../../kernel/index.js';

export interface RetryData {
  until: boolean;
  attempts: number;
  splay: number;
  interval: number;
}

const DEFAULTS: RetryData = { until: true, attempts: 2, splay: 0, interval: 30 };

/** Python's isinstance(x, int): a bool is one too. */
function isInt(value: unknown): boolean {
  return typeof value === 'boolean' || Number.isInteger(value);
}

/** The retry settings of a chunk's `retry` value. */
export function verifyRetryData(data: unknown, log: UnitLogger): RetryData {
  if (data && typeof data === 'object' && !Array.isArray(data)) {
    const given = data as Record<string, unknown>;
    const out = { ...DEFAULTS };
    for (const key of ['until', 'attempts', 'interval', 'splay'] as const) {
      if (!(key in given)) continue;
      const value = given[key];
      const ok = key === 'until' ? typeof value === 'boolean' : isInt(value);
      if (ok) (out as Record<string, unknown>)[key] = key === 'until' ? value : Number(value);
      else
        log.warn(`An invalid value was passed for the retry ${key}, using default value '${DEFAULTS[key]}'`);
    }
    return out;
  }
  if (typeof data === 'boolean') return data ? { ...DEFAULTS } : { ...DEFAULTS, attempts: 0 };
  log.warn(
    'State is set to retry, but retry: True or a valid dict for retry configuration was not found.  Using retry defaults',
  );
  return { ...DEFAULTS };
}

/** The interval before the next attempt, with its random splay, in seconds. */
export function retryInterval(retry: RetryData): number {
  return retry.interval + (retry.splay !== 0 ? Math.floor(Math.random() * (retry.splay + 1)) : 0);
}
