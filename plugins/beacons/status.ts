/**
 * The `status` beacon (Salt's `salt/beacons/status.py`): a health event each run, tagged with
 * the UTC time, whose `data` holds what the configured `status.<fun>` functions return
 * (`all`, or the listed keys / list indexes of each); with no functions configured, loadavg,
 * cpustats, meminfo, vmstats and time.
 *
 *   beacons:
 *     status:
 *       - loadavg: [1-min, 5-min]
 *       - time: [all]
 */
import { defineBeacon } from '../../kernel/index.js';
import { pyRepr, pyTypeName } from '../../kernel/python/index.js';

const DEFAULTS = { loadavg: ['all'], cpustats: ['all'], meminfo: ['all'], vmstats: ['all'], time: ['all'] };

/** Python's `datetime.utcnow().isoformat()`: microseconds, left out when they are zero. */
export function utcIsoformat(ms: number): string {
  const micro = Math.round((ms % 1000) * 1000) % 1_000_000;
  const base = new Date(Math.floor(ms)).toISOString().slice(0, 19);
  return micro === 0 ? base : `${base}.${String(micro).padStart(6, '0')}`;
}

/** A Python error the beacon's indexing raises; `KeyError` is reported in the event, the rest fail the run. */
class PyIndexError extends Error {
  constructor(
    readonly kind: 'KeyError' | 'other',
    message: string,
  ) {
    super(message);
  }
}

/** Python's `data[int(item)]` on a list or str, where `data[item]` was a TypeError. */
function byIndex(data: unknown, item: unknown): unknown {
  const seq = typeof data === 'string' ? [...data] : Array.isArray(data) ? data : undefined;
  if (!seq) throw new PyIndexError('other', `'${pyTypeName(data)}' object is not subscriptable`);
  const n = typeof item === 'number' ? item : Number.parseInt(String(item).trim(), 10);
  if (!Number.isInteger(n) || (typeof item === 'string' && !/^\s*[-+]?\d+\s*$/.test(item)))
    throw new PyIndexError('other', `invalid literal for int() with base 10: ${pyRepr(item)}`);
  const at = n < 0 ? seq.length + n : n;
  if (at < 0 || at >= seq.length)
    throw new PyIndexError('other', `${typeof data === 'string' ? 'string' : 'list'} index out of range`);
  return seq[at];
}

/** Python's `data[item]`, falling back to `data[int(item)]` on a TypeError. */
function pick(data: unknown, item: unknown): unknown {
  if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
    const map = data as Record<string, unknown>;
    if (typeof item === 'string' && Object.hasOwn(map, item)) return map[item];
    throw new PyIndexError('KeyError', pyRepr(item));
  }
  return byIndex(data, item);
}

export default defineBeacon({
  name: 'status',
  doc: 'Fire a health event with what the configured status functions return.',
  async beacon(ctx, config) {
    const ctime = utcIsoformat(performance.timeOrigin + performance.now());
    const chosen = Object.fromEntries(Object.entries(config).filter(([k]) => !k.startsWith('_')));
    const entries = Object.keys(chosen).length > 0 ? chosen : DEFAULTS;
    const ret: Record<string, unknown> = {};
    for (const [func, wanted] of Object.entries(entries)) {
      ret[func] = {};
      let data: unknown;
      try {
        data = await ctx.call(`status.${func}`);
      } catch (err) {
        const message = (err as Error).message;
        // Salt's __salt__ lookup raises KeyError for a function it lacks: the run fails
        if (message.endsWith('is not available.')) throw new Error(`'status.${func}'`);
        ctx.log.debug(
          `Status beacon attempted to process function ${func} but encountered error: ${message}`,
        );
        continue;
      }
      for (const item of Array.isArray(wanted) ? wanted : [wanted]) {
        if (item === 'all') {
          ret[func] = data;
          continue;
        }
        try {
          (ret[func] as Record<string, unknown>)[String(item)] = pick(data, item);
        } catch (err) {
          if (!(err instanceof PyIndexError) || err.kind !== 'KeyError') throw err;
          ret[func] = `Status beacon is incorrectly configured: ${err.message}`;
        }
      }
    }
    return [{ tag: ctime, data: ret }];
  },
});
