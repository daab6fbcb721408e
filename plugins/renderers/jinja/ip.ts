/**
 * IP addresses and networks as Python's `ipaddress` module reads and prints them, for Salt's
 * `ipaddr` filter family (salt/utils/network.py): an address or an interface (`addr/prefix`),
 * its version, whether it is private/loopback/..., a network's hosts and size.
 */
import { isIP } from 'node:net';

export interface IpValue {
  readonly version: 4 | 6;
  /** The address as a number (128 bits for IPv6). */
  readonly value: bigint;
  /** The prefix length when written as an interface (`10.0.0.1/8`). */
  readonly prefix?: number;
}

function v4ToBig(s: string): bigint {
  return s.split('.').reduce((acc, p) => (acc << 8n) | BigInt(Number(p)), 0n);
}

function v6ToBig(s: string): bigint {
  let text = s;
  const v4tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4tail) {
    const n = v4ToBig(v4tail[1] as string);
    text = `${text.slice(0, v4tail.index)}${(n >> 16n).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

/** `ipaddress.ip_address(s)`, else `ipaddress.ip_interface(s)`; undefined when neither. */
export function parseIp(input: unknown): IpValue | undefined {
  if (typeof input !== 'string') return undefined;
  const [addr = '', prefix, ...more] = input.split('/');
  if (more.length) return undefined;
  const version = isIP(addr);
  if (version !== 4 && version !== 6) return undefined;
  const bits = version === 4 ? 32 : 128;
  if (prefix !== undefined && (!/^\d+$/.test(prefix) || Number(prefix) > bits)) return undefined;
  const value = version === 4 ? v4ToBig(addr) : v6ToBig(addr);
  return prefix === undefined ? { version, value } : { version, value, prefix: Number(prefix) };
}

/** The address part as Python prints it. */
export function addressText(version: 4 | 6, value: bigint): string {
  if (version === 4) return [24n, 16n, 8n, 0n].map((s) => String((value >> s) & 0xffn)).join('.');
  const groups = [112n, 96n, 80n, 64n, 48n, 32n, 16n, 0n].map((s) => ((value >> s) & 0xffffn).toString(16));
  // the longest run of zero groups (two or more) becomes '::'
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== '0') {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === '0') j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  if (best < 0) return groups.join(':');
  return `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
}

/** `str()` of the parsed address or interface. */
export function ipText(ip: IpValue): string {
  const a = addressText(ip.version, ip.value);
  return ip.prefix === undefined ? a : `${a}/${ip.prefix}`;
}

const bitsOf = (ip: IpValue) => (ip.version === 4 ? 32 : 128);

/** The network an interface is in (`ip_network(x, strict=False)`): first address and prefix. */
export function networkOf(ip: IpValue): { base: bigint; prefix: number } {
  const bits = bitsOf(ip);
  const prefix = ip.prefix ?? bits;
  const host = (1n << BigInt(bits - prefix)) - 1n;
  return { base: ip.value & ~host, prefix };
}

export function networkSize(ip: IpValue): number {
  const { prefix } = networkOf(ip);
  return Number(1n << BigInt(bitsOf(ip) - prefix));
}

/** `ip_network(x, strict=False).hosts()` as text, at most `max` of them. */
export function networkHosts(ip: IpValue, max: number): string[] | undefined {
  const bits = bitsOf(ip);
  const { base, prefix } = networkOf(ip);
  const size = 1n << BigInt(bits - prefix);
  if (size > BigInt(max) + 2n) return undefined;
  let first = base;
  let last = base + size - 1n;
  if (size === 1n) return [addressText(ip.version, base)];
  if (!(ip.version === 4 && size === 2n) && !(ip.version === 6 && size === 2n)) {
    first += 1n;
    if (ip.version === 4) last -= 1n;
  }
  const out: string[] = [];
  for (let a = first; a <= last; a++) out.push(addressText(ip.version, a));
  return out;
}

export function inNetwork(ip: IpValue, net: IpValue): boolean {
  if (ip.version !== net.version) return false;
  const { base, prefix } = networkOf(net);
  const host = (1n << BigInt(bitsOf(net) - prefix)) - 1n;
  return (ip.value & ~host) === base;
}

function within(ip: IpValue, nets: readonly string[]): boolean {
  return nets.some((n) => {
    const net = parseIp(n);
    return net !== undefined && inNetwork({ version: ip.version, value: ip.value }, net);
  });
}

const PRIVATE4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/29',
  '192.0.0.170/31',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '240.0.0.0/4',
  '255.255.255.255/32',
];
const PRIVATE6 = [
  '::1/128',
  '::/128',
  '::ffff:0:0/96',
  '100::/64',
  '2001::/23',
  '2001:2::/48',
  '2001:db8::/32',
  '2001:10::/28',
  'fc00::/7',
  'fe80::/10',
];

/** The `ipaddress` properties Salt's options test (`private`, `loopback`, `multicast`, ...). */
export function ipProperty(ip: IpValue, name: string): boolean {
  const v4 = ip.version === 4;
  switch (name) {
    case 'private':
      return within(ip, v4 ? PRIVATE4 : PRIVATE6);
    case 'global':
      return !within(ip, v4 ? PRIVATE4 : PRIVATE6);
    case 'loopback':
      return within(ip, v4 ? ['127.0.0.0/8'] : ['::1/128']);
    case 'multicast':
      return within(ip, v4 ? ['224.0.0.0/4'] : ['ff00::/8']);
    case 'link_local':
      return within(ip, v4 ? ['169.254.0.0/16'] : ['fe80::/10']);
    case 'reserved':
      return v4
        ? within(ip, ['240.0.0.0/4'])
        : within(ip, ['::/8', '100::/8', '200::/7', '400::/6', '800::/5']);
    case 'site_local':
      return !v4 && within(ip, ['fec0::/10']);
    case 'unspecified':
      return ip.value === 0n;
    default:
      return true;
  }
}
