/**
 * The `swapusage` beacon (Salt's `salt/beacons/swapusage.py`): fires the percentage of swap in
 * use (psutil's `swap_memory().percent`, 0.0 without swap) when it reaches `percent`.
 *
 *   beacons:
 *     swapusage:
 *       - percent: 13%
 */
import { defineBeacon } from '../../kernel/index.js';
import { meminfo } from './_meminfo.js';
import { percentThreshold, usagePercent } from './_pynum.js';

export default defineBeacon({
  name: 'swapusage',
  doc: 'Emit the swap usage when it reaches the configured percent.',
  validate(config) {
    return 'percent' in config ? true : 'Configuration for swapusage beacon requires percent.';
  },
  beacon(_ctx, config) {
    const m = meminfo();
    const total = m.SwapTotal ?? 0;
    const current = usagePercent(total - (m.SwapFree ?? 0), total);
    return current >= percentThreshold(config.percent) ? [{ swapusage: current }] : [];
  },
});
