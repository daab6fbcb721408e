/**
 * The interface options Salt's Debian `ip` module knows, per address family, and how it checks
 * (and converts) each value: `IPV4_ATTR_MAP`, `IPV6_ATTR_MAP`, `WIRELESS_ATTR_MAP` in Salt.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { SaltFloat } from '../kernel/python/index.js';
import { pythonError } from './_py-exception.js';
import { parsePyInt } from './_py-int.js';

/** A check's answer: whether the value passes, the value as kept, Salt's description of it. */
export type Checked = [valid: boolean, value: unknown, expected: string | null];
type Check = (value: unknown) => Checked;

function ipWithMask(addr: unknown, v6: boolean): boolean {
  if (typeof addr !== 'string') return false;
  const max = v6 ? 128 : 32;
  const full = addr.includes('/') ? addr : `${addr}/${max}`;
  const cut = full.lastIndexOf('/');
  const ip = full.slice(0, cut);
  const ok = v6 ? isIPv6(ip) && !ip.includes('%') : isIPv4(ip);
  const mask = parsePyInt(full.slice(cut + 1));
  return ok && mask !== undefined && mask >= 1 && mask <= max;
}

/** Salt's MAC check; like Python's `re.match`, it fails on a value that is not a string. */
function isMac(v: unknown): boolean {
  if (typeof v !== 'string') {
    const type =
      typeof v === 'number'
        ? Number.isInteger(v)
          ? 'int'
          : 'float'
        : typeof v === 'boolean'
          ? 'bool'
          : Array.isArray(v)
            ? 'list'
            : v === null
              ? 'NoneType'
              : 'dict';
    throw pythonError('TypeError', `expected string or bytes-like object, got '${type}'`);
  }
  return /^(?:([0-9A-F]{1,2}-){5}|([0-9A-F]{1,2}:){5}|([0-9A-F]{1,2}\.){5})[0-9A-F]{1,2}$/i.test(v);
}

/** Python's `int(value)` for a str, int, float or bool; undefined where it raises. */
function pyIntOf(v: unknown): number | undefined {
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
  if (v instanceof SaltFloat) return Math.trunc(v.value);
  if (typeof v === 'string') return parsePyInt(v);
  return undefined;
}

function pyFloatOf(v: unknown): SaltFloat | undefined {
  if (typeof v === 'boolean') return new SaltFloat(v ? 1 : 0);
  if (typeof v === 'number') return new SaltFloat(v);
  if (v instanceof SaltFloat) return v;
  if (typeof v !== 'string') return undefined;
  const t = v.trim().replace(/_/g, '');
  if (!/^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)$/i.test(t)) return undefined;
  const lower = t.toLowerCase().replace(/^[+]/, '');
  if (/inf/.test(lower)) return new SaltFloat(lower.startsWith('-') ? -Infinity : Infinity);
  return new SaltFloat(lower.includes('nan') ? Number.NaN : Number(t));
}

const anything: Check = (v) => [true, v, null];
const ipv4Quad: Check = (v) => [ipWithMask(v, false), v, 'dotted IPv4 address'];
const ipv6: Check = (v) => [ipWithMask(v, true), v, 'IPv6 address'];
const mac: Check = (v) => [isMac(v), v, 'MAC address'];
const int: Check = (v) => {
  const n = pyIntOf(v);
  return n === undefined ? [false, v, 'integer'] : [true, n, 'integer'];
};
const float: Check = (v) => {
  const f = pyFloatOf(v);
  return f === undefined ? [false, v, 'float'] : [true, f, 'float'];
};

function isNetmask(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const octets = v.split('.');
  if (octets.length !== 4 || !ipWithMask(v, false)) return false;
  const sorted = [...octets].sort().reverse();
  return octets.every((o, i) => o === sorted[i]);
}

const ipv4Netmask: Check = (v) => {
  const n = pyIntOf(v);
  if (n !== undefined && n >= 0 && n <= 32) return [true, n, 'dotted quad or integer CIDR (0->32)'];
  const kept = n ?? v;
  return [isNetmask(kept), kept, 'dotted quad or integer CIDR (0->32)'];
};
const ipv6Netmask: Check = (v) => {
  const n = pyIntOf(v);
  return [n !== undefined && n >= 0 && n <= 128, n ?? v, 'IPv6 netmask (0->128)'];
};

const spaceList: Check = (v) => {
  const value = typeof v === 'string' ? v.trim().split(/\s+/).filter(Boolean) : v;
  const iterable = Array.isArray(value) || (value !== null && typeof value === 'object');
  const nonEmpty = !(Array.isArray(value) && value.length === 0);
  return iterable && nonEmpty
    ? [true, value, 'space-delimited string']
    : [false, value, `${String(value)} is not a valid space-delimited value.\n`];
};

/** Python `repr()` of a list of str or int, as Salt's messages show it. */
const listRepr = (xs: readonly (string | number)[]): string =>
  `[${xs.map((x) => (typeof x === 'string' ? `'${x}'` : String(x))).join(', ')}]`;

/** `value in within`, after `dtype(value)` where Salt converts (str or int). */
function within(list: readonly (string | number)[], dtype?: 'str' | 'int'): Check {
  const msg = dtype ? `${dtype} within '${listRepr(list)}'` : `within '${listRepr(list)}'`;
  return (v) => {
    if (dtype === 'int') {
      const n = pyIntOf(v);
      return n === undefined ? [false, v, msg] : [list.includes(n), n, msg];
    }
    const value = dtype === 'str' && typeof v !== 'string' ? pyStrSimple(v) : v;
    return [(typeof value === 'string' || typeof value === 'number') && list.includes(value), value, msg];
  };
}

function pyStrSimple(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') return String(v);
  if (v === null || v === undefined) return 'None';
  return v;
}

const TUNNEL_MODES = ['gre', 'GRE', 'ipip', 'IPIP', '802.3ad'];

const IPV4: Readonly<Record<string, Check>> = {
  proto: within(['bootp', 'dhcp', 'static', 'manual', 'loopback', 'ppp'], 'str'),
  address: ipv4Quad,
  addresses: anything,
  netmask: ipv4Netmask,
  broadcast: ipv4Quad,
  metric: int,
  gateway: ipv4Quad,
  pointopoint: ipv4Quad,
  hwaddress: mac,
  mtu: int,
  scope: within(['global', 'link', 'host'], 'str'),
  hostname: anything,
  leasehours: int,
  leasetime: int,
  vendor: anything,
  client: anything,
  bootfile: anything,
  server: ipv4Quad,
  hwaddr: mac,
  mode: within(TUNNEL_MODES, 'str'),
  endpoint: ipv4Quad,
  dstaddr: ipv4Quad,
  local: ipv4Quad,
  ttl: int,
  slaves: anything,
  provider: anything,
  unit: int,
  options: anything,
  'dns-nameservers': spaceList,
  'dns-search': spaceList,
  'vlan-raw-device': anything,
  network: anything,
  test: anything,
  enable_ipv4: anything,
  enable_ipv6: anything,
};

const IPV6: Readonly<Record<string, Check>> = {
  proto: within(['auto', 'loopback', 'static', 'manual', 'dhcp', 'v4tunnel', '6to4']),
  address: ipv6,
  addresses: anything,
  netmask: ipv6Netmask,
  broadcast: ipv6,
  gateway: ipv6,
  hwaddress: mac,
  mtu: int,
  scope: within(['global', 'site', 'link', 'host'], 'str'),
  privext: within([0, 1, 2], 'int'),
  dhcp: within([0, 1], 'int'),
  media: anything,
  accept_ra: within([0, 1, 2], 'int'),
  autoconf: within([0, 1], 'int'),
  'preferred-lifetime': int,
  'dad-attempts': int,
  'dad-interval': float,
  slaves: anything,
  mode: within(TUNNEL_MODES, 'str'),
  endpoint: ipv4Quad,
  local: ipv4Quad,
  ttl: int,
  'dns-nameservers': spaceList,
  'dns-search': spaceList,
  'vlan-raw-device': anything,
  test: anything,
  enable_ipv4: anything,
  enable_ipv6: anything,
};

const WIRELESS: Readonly<Record<string, Check>> = {
  'wireless-essid': anything,
  'wireless-mode': anything,
  'wpa-ap-scan': within([0, 1, 2], 'int'),
  'wpa-conf': anything,
  'wpa-driver': anything,
  'wpa-group': anything,
  'wpa-key-mgmt': anything,
  'wpa-pairwise': anything,
  'wpa-psk': anything,
  'wpa-proto': anything,
  'wpa-roam': anything,
  'wpa-ssid': anything,
};

const MAPS: Readonly<Record<string, readonly Readonly<Record<string, Check>>[]>> = {
  inet: [IPV4, WIRELESS],
  inet6: [IPV6, WIRELESS],
};

/** Salt's `_validate_interface_option`: the first map of the family that knows `attr` decides. */
export function checkOption(attr: string, value: unknown, addrfam: string): Checked {
  for (const map of MAPS[addrfam] ?? []) {
    const check = Object.hasOwn(map, attr) ? map[attr] : undefined;
    if (check) return check(value);
  }
  return [false, value, 'Unknown validator'];
}

/** Whether any family's map knows `attr`. */
export const knownOption = (attr: string): boolean =>
  Object.hasOwn(WIRELESS, attr) || Object.hasOwn(IPV4, attr) || Object.hasOwn(IPV6, attr);
