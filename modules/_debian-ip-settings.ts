/**
 * Turns `ip.build_interface`'s keyword settings into the interface record Salt renders
 * (`_parse_settings_eth`, `_parse_ethtool_opts`, `_parse_bridge_opts`, `_parse_settings_source`).
 */

import { checkOption } from './_debian-ip-attrs.js';
import { bondSettings, CONFIG_FALSE, CONFIG_TRUE, ifaceError, inConfig } from './_debian-ip-bond.js';
import type { Adapter } from './_debian-ip-render.js';
import { pythonError } from './_py-exception.js';
import { parsePyInt } from './_py-int.js';

type Opts = Record<string, unknown>;

const ETHTOOL_NAMES: Readonly<Record<string, string>> = {
  speed: 'link-speed',
  duplex: 'link-duplex',
  autoneg: 'ethernet-autoneg',
  rx: 'offload-rx',
  tx: 'offload-tx',
  sg: 'offload-sg',
  tso: 'offload-tso',
  ufo: 'offload-ufo',
  gso: 'offload-gso',
  gro: 'offload-gro',
  lro: 'offload-lro',
};

const ON_OFF = [...CONFIG_TRUE, ...CONFIG_FALSE];

function onOff(opts: Opts, iface: string, name: string): string | undefined {
  if (!(name in opts)) return undefined;
  if (inConfig(CONFIG_TRUE, opts[name])) return 'on';
  if (inConfig(CONFIG_FALSE, opts[name])) return 'off';
  throw ifaceError(iface, name, ON_OFF);
}

/** The ethtool options of `opts`, keyed by Salt's short names. */
function ethtoolSettings(opts: Opts, iface: string): Opts {
  const config: Opts = {};
  const autoneg = onOff(opts, iface, 'autoneg');
  if (autoneg) config.autoneg = autoneg;
  if ('duplex' in opts) {
    if (opts.duplex !== 'full' && opts.duplex !== 'half') throw ifaceError(iface, 'duplex', ['full', 'half']);
    config.duplex = opts.duplex;
  }
  if ('speed' in opts) {
    const valid = ['10', '100', '1000', '10000'];
    if (!valid.includes(String(opts.speed))) throw ifaceError(iface, opts.speed, valid);
    config.speed = opts.speed;
  }
  for (const name of ['rx', 'tx', 'sg', 'tso', 'ufo', 'gso', 'gro', 'lro']) {
    const v = onOff(opts, iface, name);
    if (v) config[name] = v;
  }
  return config;
}

const isFloatText = (v: unknown): boolean =>
  typeof v === 'number' ||
  typeof v === 'boolean' ||
  (typeof v === 'string' && /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(v));

function bridgeSettings(opts: Opts, iface: string): Opts {
  const config: Opts = {};
  if ('ports' in opts) {
    if (Array.isArray(opts.ports)) opts.ports = opts.ports.map(String).join(' ');
    config.ports = opts.ports;
  }
  for (const name of ['ageing', 'fd', 'gcint', 'hello', 'maxage']) {
    if (!(name in opts)) continue;
    if (!isFloatText(opts[name])) throw ifaceError(iface, name, ['float']);
    config[name] = opts[name];
  }
  for (const name of ['bridgeprio', 'maxwait']) {
    if (!(name in opts)) continue;
    if (typeof opts[name] !== 'number' && typeof opts[name] !== 'boolean')
      throw ifaceError(iface, name, ['integer']);
    config[name] = opts[name];
  }
  if ('hw' in opts) {
    if (!/^[0-9a-f]{2}([-:])[0-9a-f]{2}(\1[0-9a-f]{2}){4}$/.test(String(opts.hw).toLowerCase()))
      throw ifaceError(iface, 'hw', ['valid MAC address']);
    config.hw = opts.hw;
  }
  for (const name of ['pathcost', 'portprio']) {
    if (!(name in opts)) continue;
    const parts = String(opts[name]).trim().split(/\s+/);
    if (parts.length !== 2 || parsePyInt(parts[1] as string) === undefined)
      throw ifaceError(iface, name, ['interface integer']);
    config[name] = `${parts[0]} ${parts[1]}`;
  }
  const stp = onOff(opts, iface, 'stp');
  if (stp) config.stp = stp;
  if ('waitport' in opts) {
    if (typeof opts.waitport === 'number') config.waitport = opts.waitport;
    else {
      const values = String(opts.waitport).trim().split(/\s+/);
      const time = values.shift() ?? '';
      if (!/^\d+$/.test(time) || values.length === 0)
        throw ifaceError(iface, 'portprio', ['integer [interfaces]']);
      config.waitport = `${time} ${values.join(' ')}`;
    }
  }
  return config;
}

const SALT_TO_DEBIAN: Readonly<Record<string, string>> = {
  dns: 'dns-nameservers',
  search: 'dns-search',
  hwaddr: 'hwaddress',
  ipaddr: 'address',
  ipaddrs: 'addresses',
};

const INET_OPTS = new Set(['ipaddr', 'address', 'ipaddresses', 'addresses', 'gateway', 'proto']);
const CMD_OPTS = ['up_cmds', 'pre_up_cmds', 'post_up_cmds', 'down_cmds', 'pre_down_cmds', 'post_down_cmds'];
const sortedKeys = (o: Opts): string[] => Object.keys(o).sort();

/** Per family, the type-specific part: ethtool, bridge, bond, slave, vlan settings. */
function familyParts(
  opts: Opts,
  type: string,
  iface: string,
  adapter: Adapter,
  fam: Adapter,
  addrfam: string,
  ubuntu16: boolean,
): void {
  if (type !== 'bridge') {
    const eth = ethtoolSettings(opts, iface);
    if (Object.keys(eth).length) {
      const ethtool: Opts = {};
      for (const [k, v] of Object.entries(eth)) ethtool[ETHTOOL_NAMES[k] as string] = v;
      fam.ethtool = ethtool;
      fam.ethtool_keys = sortedKeys(ethtool);
    }
  }
  if (type === 'bridge') {
    const bridging = bridgeSettings(opts, iface);
    if (Object.keys(bridging).length)
      Object.assign(fam, { bridging, bridging_keys: sortedKeys(bridging), addrfam });
  } else if (type === 'bond') {
    const bonding = bondSettings(opts, iface, ubuntu16);
    if (!('slaves' in opts)) throw pythonError('KeyError', "'slaves'");
    bonding.slaves = opts.slaves;
    Object.assign(fam, { bonding, bonding_keys: sortedKeys(bonding), addrfam });
  } else if (type === 'slave') {
    adapter.master = opts.master;
    opts.proto = 'manual';
    Object.assign(fam, { master: adapter.master, addrfam });
  } else if (type === 'vlan') {
    Object.assign(fam, { vlan_raw_device: iface.replace(/\.\d*/g, ''), addrfam });
  } else if (type === 'pppoe') fam.addrfam = addrfam;
}

/** Salt's `_parse_settings_eth`: the record of one interface built from its settings. */
export function ethAdapter(
  opts: Opts,
  type: string,
  enabled: unknown,
  iface: string,
  ubuntu16: boolean,
): Adapter {
  const inet: Adapter = {};
  const inet6: Adapter = {};
  const data: Record<string, Adapter> = { inet, inet6 };
  const adapter: Adapter = { type, data };
  if (enabled) adapter.enabled = true;
  if (opts.hotplug) adapter.hotplug = true;
  if (opts.enable_ipv6 && opts.iface_type === 'vlan') inet6.vlan_raw_device = iface.replace(/\.\d*/g, '');
  for (const addrfam of ['inet', 'inet6'] as const)
    familyParts(opts, type, iface, adapter, data[addrfam] as Adapter, addrfam, ubuntu16);
  delete opts.mode;
  for (const [key, val] of Object.entries(opts)) {
    let opt = key;
    let only: string | undefined;
    if (opt.startsWith('ipv4') || opt.startsWith('ipv6')) {
      only = opt.startsWith('ipv4') ? 'inet' : 'inet6';
      (data[only] as Adapter).addrfam = only;
      opt = opt.slice(4);
    } else if (INET_OPTS.has(opt)) {
      inet.addrfam = 'inet';
      only = 'inet';
    }
    const debianOpt = SALT_TO_DEBIAN[opt] ?? opt;
    const name = debianOpt.replace(/-/g, '_');
    for (const addrfam of ['inet', 'inet6']) {
      const [valid, value] = checkOption(debianOpt, val, addrfam);
      if (!valid) continue;
      const fam = data[addrfam] as Adapter;
      if ((only === undefined && !(name in fam)) || only === addrfam) fam[name] = value;
    }
  }
  for (const opt of CMD_OPTS) {
    if (opt in opts) {
      inet[opt] = opts[opt];
      inet6[opt] = opts[opt];
    }
  }
  for (const [addrfam, flag] of [
    ['inet', 'enable_ipv4'],
    ['inet6', 'enable_ipv6'],
  ] as const) {
    if (opts[flag] === false || (data[addrfam] as Adapter).addrfam !== addrfam) delete data[addrfam];
  }
  return adapter;
}

/** Salt's `_parse_settings_source`: a `source` entry naming one file. */
export function sourceAdapter(opts: Opts, type: string): Adapter {
  if (!('source' in opts)) throw pythonError('KeyError', "'source'");
  return { type, data: { sources: [opts.source] } };
}
