/**
 * The `network_info` beacon (Salt's `salt/beacons/network_info.py`): per interface, fires its
 * counters (psutil's `net_io_counters(pernic=True)`, from `/proc/net/dev`) when a configured
 * counter equals its value (`type: equal`, the default) or exceeds it (`type: greater`).
 *
 *   beacons:
 *     network_info:
 *       - interfaces:
 *           eth0: { type: greater, bytes_sent: 100000 }
 */
import { defineBeacon } from '../../kernel/index.js';
import { netIoCounters } from '../../modules/_ps-proc.js';
import { pyInt } from '../../modules/_py-int.js';

const ATTRS = [
  'bytes_sent',
  'bytes_recv',
  'packets_sent',
  'packets_recv',
  'errin',
  'errout',
  'dropin',
  'dropout',
] as const;
type Counters = Record<(typeof ATTRS)[number], number>;
const VALID_ITEMS: readonly string[] = ['type', ...ATTRS];

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export default defineBeacon({
  name: 'network_info',
  doc: 'Emit the counters of the configured interfaces when they meet their values.',
  validate(config) {
    for (const item of Object.values(isMap(config.interfaces) ? config.interfaces : {})) {
      if (!isMap(item)) return 'Configuration for network_info beacon must be a list of dictionaries.';
      if (!Object.keys(item).some((k) => VALID_ITEMS.includes(k)))
        return 'Invalid configuration item in Beacon configuration.';
    }
    return true;
  },
  beacon(_ctx, config) {
    const stats = netIoCounters() as Record<string, Counters | undefined>;
    const ret: Array<{ interface: string; network_info: Counters }> = [];
    const interfaces = isMap(config.interfaces) ? config.interfaces : {};
    for (const [name, raw] of Object.entries(interfaces)) {
      const counters = stats[name];
      if (!counters || !isMap(raw)) continue;
      let diff = false;
      for (const attr of ATTRS) {
        if (!(attr in raw)) continue;
        const want = pyInt(raw[attr]);
        if (raw.type === 'greater' ? counters[attr] > want : counters[attr] === want) diff = true;
      }
      if (diff) ret.push({ interface: name, network_info: { ...counters } });
    }
    return ret;
  },
});
