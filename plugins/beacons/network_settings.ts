/**
 * The `network_settings` beacon (Salt's `salt/beacons/network_settings.py`, there through
 * pyroute2; here plugins/beacons/_netlinks.ts): for each configured interface (a name, or a
 * regular expression searched in every name), fires the watched attributes that changed since
 * the last run as `{interface, change: {attr: value}}` tagged with the interface, only for the
 * given `onvalue` when one is set; `coalesce` fires them together as `{changes}` tagged `result`.
 * The first run records the interfaces as they are.
 *
 *   beacons:
 *     network_settings:
 *       - interfaces:
 *           eth0: { ipaddr: {}, promiscuity: { onvalue: 1 } }
 *       - coalesce: True
 */
import { isDeepStrictEqual } from 'node:util';
import { defineBeacon } from '../../kernel/index.js';
import { type AttrValue, interfaces } from './_netlinks.js';

const ATTRS = [
  'family',
  'txqlen',
  'ipdb_scope',
  'index',
  'operstate',
  'group',
  'carrier_changes',
  'ipaddr',
  'neighbours',
  'ifname',
  'promiscuity',
  'linkmode',
  'broadcast',
  'address',
  'num_tx_queues',
  'ipdb_priority',
  'kind',
  'qdisc',
  'mtu',
  'num_rx_queues',
  'carrier',
  'flags',
  'ifi_type',
  'ports',
];

type Snapshot = Map<string, Record<string, AttrValue>>;

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export default defineBeacon({
  name: 'network_settings',
  doc: 'Emit the changes of the configured network interfaces.',
  validate(config) {
    const ifs = config.interfaces ?? {};
    if (Array.isArray(ifs)) return 'interfaces section for network_settings beacon must be a dictionary.';
    for (const attrs of Object.values(isMap(ifs) ? ifs : {})) {
      if (!isMap(attrs)) return 'Interface attributes for network_settings beacon must be a dictionary.';
      if (!Object.keys(attrs).every((a) => ATTRS.includes(a)))
        return 'Invalid attributes in beacon configuration.';
    }
    return true;
  },
  beacon(ctx, config) {
    const stats: Snapshot = interfaces();
    let last = ctx.state.get('last') as Snapshot | undefined;
    if (!last) {
      last = new Map(stats);
      ctx.state.set('last', last);
    }
    const wanted = isMap(config.interfaces) ? config.interfaces : {};
    const chosen: Array<[string, Record<string, unknown>]> = [];
    for (const [key, attrs] of Object.entries(wanted)) {
      const spec = isMap(attrs) ? attrs : {};
      if (stats.has(key)) chosen.push([key, spec]);
      else for (const name of stats.keys()) if (new RegExp(key).test(name)) chosen.push([name, spec]);
    }
    const ret: Array<Record<string, unknown>> = [];
    const changes: Record<string, Record<string, AttrValue>> = {};
    for (const [name, spec] of chosen) {
      const now = stats.get(name)!;
      const before = last.get(name) ?? {};
      const diff = Object.keys(now).filter((a) => !isDeepStrictEqual(now[a], before[a]));
      if (diff.length === 0) continue;
      last.set(name, now);
      const changed: Record<string, AttrValue> = {};
      for (const attr of Object.keys(spec)) {
        if (!diff.includes(attr)) continue;
        const opt = spec[attr];
        const onvalue = isMap(opt) && 'onvalue' in opt ? opt.onvalue : undefined;
        if (!onvalue || isDeepStrictEqual(onvalue, now[attr])) changed[attr] = now[attr]!;
      }
      if (Object.keys(changed).length === 0) continue;
      if (config.coalesce) changes[name] = changed;
      else ret.push({ tag: name, interface: name, change: changed });
    }
    if (config.coalesce && Object.keys(changes).length > 0) ret.push({ tag: 'result', changes });
    return ret;
  },
});
