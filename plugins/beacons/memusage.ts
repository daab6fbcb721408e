/**
 * The `memusage` beacon (Salt's `salt/beacons/memusage.py`): fires the percentage of memory in
 * use (psutil's `virtual_memory().percent`: total less available) when it reaches `percent`.
 *
 *   beacons:
 *     memusage:
 *       - percent: 63%
 */
import { defineBeacon } from '../../kernel/index.js';
import { meminfo } from './_meminfo.js';
import { percentThreshold, usagePercent } from './_pynum.js';

export default defineBeacon({
  name: 'memusage',
  doc: 'Emit the memory usage when it reaches the configured percent.',
  validate(config) {
    return 'percent' in config ? true : 'Configuration for memusage beacon requires percent.';
  },
  beacon(_ctx, config) {
    const m = meminfo();
    const total = m.MemTotal ?? 0;
    const avail = m.MemAvailable ?? (m.MemFree ?? 0) + (m.Buffers ?? 0) + (m.Cached ?? 0);
    const current = usagePercent(total - avail, total);
    return current >= percentThreshold(config.percent) ? [{ memusage: current }] : [];
  },
});
