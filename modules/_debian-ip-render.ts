/**
 * The text Salt's Debian `ip` module writes: its templates (`salt/templates/debian_ip/`) redone
 * as functions that produce the same bytes. Values print as Python's `str()` does and are
 * tested the way Jinja tests them (`is string`, `is number`, `is iterable`, truthiness).
 */
import { pyStr, pyTruthy, pyValue } from '../kernel/python/index.js';

/** A parsed or built interface block: `adapters[name]` in Salt. */
export type Adapter = Record<string, unknown>;

const OPTMAP: Readonly<Record<string, string>> = {
  addresses: 'address',
  hwaddr: 'hwaddress',
  up_cmds: 'up',
  down_cmds: 'down',
  pre_up_cmds: 'pre-up',
  post_up_cmds: 'post-up',
  pre_down_cmds: 'pre-down',
  post_down_cmds: 'post-down',
  master: 'bond-master',
  accept_ra: 'accept_ra',
};

/** The options an `iface` block prints, in the order Salt prints them. */
const VALID_OPTS = [
  'autoconf',
  'privext',
  'dhcp',
  'hwaddress',
  'hwaddr',
  'vlan_raw_device',
  'address',
  'addresses',
  'netmask',
  'metric',
  'gateway',
  'pointopoint',
  'scope',
  'hostname',
  'media',
  'leasehours',
  'leasetime',
  'vendor',
  'client',
  'bootfile',
  'server',
  'mode',
  'endpoint',
  'dstaddr',
  'local',
  'ttl',
  'mtu',
  'provider',
  'unit',
  'options',
  'master',
  'dns_nameservers',
  'wireless_mode',
  'wpa_ap_scan',
  'wpa_conf',
  'wpa_driver',
  'wpa_group',
  'wpa_key_mgmt',
  'wpa_pairwise',
  'wpa_proto',
  'wpa_psk',
  'wpa_roam',
  'wpa_ssid',
  'accept_ra',
  'up_cmds',
  'down_cmds',
  'pre_up_cmds',
  'post_up_cmds',
  'pre_down_cmds',
  'post_down_cmds',
] as const;

const isNumber = (v: unknown): boolean => ['bool', 'int', 'float'].includes(pyValue(v).kind);

/** Jinja's `is iterable`: what a `for` can walk, as a list of its items (a dict gives its keys). */
function items(v: unknown): unknown[] | undefined {
  const p = pyValue(v);
  if (p.kind === 'str') return [...p.value];
  if (p.kind === 'list' || p.kind === 'tuple') return [...p.value];
  if (p.kind === 'dict') return p.value.map(([k]) => k);
  return undefined;
}

const joined = (v: unknown): string => (items(v) ?? []).map(pyStr).join(' ');

/** Jinja's attribute/item lookup on a dict-like value: undefined where there is none. */
export function field(v: unknown, key: string): unknown {
  if (v instanceof Map) return v.get(key);
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) return (v as Record<string, unknown>)[key];
  return undefined;
}

/** The `ethtool`, `bond-`, `bridge_` lines of one block: string and iterable values only. */
function keyedLines(iface: unknown, key: string, prefix: string): string {
  const map = field(iface, key);
  if (!pyTruthy(map ?? null)) return '';
  let out = '';
  for (const item of items(field(iface, `${key}_keys`)) ?? []) {
    const v = field(map, pyStr(item));
    if (typeof v === 'string') out += `    ${prefix}${pyStr(item)} ${v}\n`;
    else if (items(v)) out += `    ${prefix}${pyStr(item)} ${joined(v)}\n`;
  }
  return out;
}

function optionLines(iface: unknown): string {
  let out = '';
  for (const opt of VALID_OPTS) {
    const debopt = OPTMAP[opt] ?? opt.replace(/_/g, '-');
    const got = field(iface, opt);
    const val = got === undefined ? false : got;
    if (!pyTruthy(val)) continue;
    if (opt === 'dns_nameservers' && items(val)) out += `    ${debopt} ${joined(val)}\n`;
    else if (typeof val === 'string' || isNumber(val)) out += `    ${debopt} ${pyStr(val)}\n`;
    else for (const v of items(val) ?? []) out += `    ${debopt} ${pyStr(v)}\n`;
  }
  return out;
}

/** `debian_eth.jinja`: the `auto`/`allow-hotplug` lines and an `iface` block per family. */
export function renderEth(name: string, data: unknown): string {
  let out = '';
  if (pyTruthy(field(data, 'enabled') ?? null)) out += `auto ${name}\n`;
  if (pyTruthy(field(data, 'hotplug') ?? null)) out += `allow-hotplug ${name}\n`;
  for (const inet of ['inet', 'inet6']) {
    const iface = field(field(data, 'data'), inet);
    if (!pyTruthy(iface ?? null) || field(iface, 'addrfam') !== inet) continue;
    const proto = field(iface, 'proto');
    if (!pyTruthy(proto ?? null)) continue;
    out += `iface ${name} ${pyStr(field(iface, 'addrfam'))} ${pyStr(proto)}\n`;
    out += optionLines(iface);
    out += keyedLines(iface, 'ethtool', '');
    out += keyedLines(iface, 'bonding', 'bond-');
    out += keyedLines(iface, 'bridging', 'bridge_');
  }
  return out;
}

/** `debian_source.jinja`: a blank line and a `source` line per source. */
export function renderSource(data: unknown): string {
  return (items(field(field(data, 'data'), 'sources')) ?? []).map((s) => `\nsource ${pyStr(s)}\n`).join('');
}

/** `conf.jinja`: the modprobe alias and options lines of a bond. */
export function renderBondConf(name: string, bonding: Readonly<Record<string, unknown>>): string {
  const opts = Object.entries(bonding).map(([k, v]) => `${k}=${pyStr(v)} `);
  return `alias ${name} bonding\noptions ${name} ${opts.join('')}`;
}

/** `route_eth.jinja`: the if-up.d/if-down.d script that adds or deletes an interface's routes. */
export function renderRoutes(kind: 'add' | 'del', routes: unknown, iface: string): string {
  let out = `#!/bin/sh\n# ${kind}\ntest "\${IFACE}" = "${iface}" || exit 0\n`;
  for (const route of items(routes) ?? []) {
    const has = (k: string): boolean => pyTruthy(field(route, k) ?? null);
    const show = (k: string): string => pyStr(field(route, k));
    if (has('name')) out += `# ${show('name')}\n`;
    out += `ip route ${kind} ${has('ipaddr') ? show('ipaddr') : ''}${has('netmask') ? `/${show('netmask')}` : ''}`;
    out += ` ${has('gateway') ? `via ${show('gateway')}` : ''} dev ${iface}${has('metric') ? ` metric ${show('metric')}` : ''}\n`;
  }
  return out;
}

/** `network.jinja`: /etc/default/networking. */
export function renderNetworking(networking: unknown): string {
  return [
    '# Configuration for networking init script being run during',
    '# the boot sequence',
    '',
    "# Set to 'no' to skip interfaces configuration on boot",
    `CONFIGURE_INTERFACES=${pyStr(networking)}`,
    '',
    "# Don't configure these interfaces. Shell wildcards supported/",
    '#EXCLUDE_INTERFACES=',
    '',
    "# Set to 'yes' to enable additional verbosity",
    '#VERBOSE=no',
  ].join('\n');
}

/** `display-network.jinja`: the settings summary the network functions return. */
export function renderDisplayNetwork(s: Readonly<Record<string, unknown>>): string {
  const line = (key: string, label: string): string =>
    pyTruthy(s[key] ?? null) ? `${label}=${pyStr(s[key])}\n` : '';
  return (
    line('networking', 'NETWORKING') +
    line('hostname', 'HOSTNAME') +
    line('domainname', 'DOMAIN') +
    line('searchdomain', 'SEARCH')
  );
}

/** Python's `readlines()` of a text: lines keeping their `\n`. */
export function readLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/** What Salt returns for rendered interface text: each `split('\n')` piece with `\n` added. */
export function splitLines(text: string): string[] {
  return text.split('\n').map((l) => `${l}\n`);
}
