/**
 * Python's `ipaddress` for what Salt asks of it, in the `network` module and in the Jinja
 * `ipaddr` filter family (salt/utils/network.py): parse IPv4 and IPv6 addresses, interfaces
 * (`addr/prefix`) and networks (`strict=False`, prefix or dotted netmask), print them as Python
 * does (RFC 5952 for IPv6), sort them, list a network's hosts, and tell the address properties
 * (private, loopback, multicast, ...). The one IP library of tsalt: modules and plugins import it.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';

export interface IpAddr {
  version: 4 | 6;
  value: bigint;
}

export interface IpNet {
  version: 4 | 6;
  net: bigint;
  prefix: number;
}

const bits = (v: 4 | 6): number => (v === 4 ? 32 : 128);

export function parseAddr(text: string): IpAddr | undefined {
  const s = text.split('%')[0] ?? '';
  if (isIPv4(s))
    return { version: 4, value: s.split('.').reduce((a, o) => (a << 8n) | BigInt(Number(o)), 0n) };
  if (!isIPv6(s)) return undefined;
  const [head = '', tail] = s.split('::');
  const groups = (part: string): string[] => {
    if (!part) return [];
    const out = part.split(':');
    const last = out[out.length - 1] ?? '';
    if (isIPv4(last)) {
      const o = last.split('.').map(Number);
      out.splice(-1, 1, ((o[0]! << 8) | o[1]!).toString(16), ((o[2]! << 8) | o[3]!).toString(16));
    }
    return out;
  };
  const h = groups(head);
  const t = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill('0'), ...t];
  return { version: 6, value: all.reduce((a, g) => (a << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n) };
}

export function formatAddr(a: IpAddr): string {
  if (a.version === 4) return [24n, 16n, 8n, 0n].map((s) => String((a.value >> s) & 255n)).join('.');
  const g: number[] = [];
  for (let i = 7; i >= 0; i--) g.push(Number((a.value >> BigInt(i * 16)) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8; ) {
    if (g[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && g[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = g.map((x) => x.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

function maskOf(version: 4 | 6, prefix: number): bigint {
  const n = bits(version);
  return ((1n << BigInt(n)) - 1n) ^ ((1n << BigInt(n - prefix)) - 1n);
}

/** Python's `ip_network(text, strict=False)`; throws on a bad address or mask. */
export function parseNet(text: string, netmask?: string | null): IpNet {
  const spec = netmask !== undefined && netmask !== null ? `${text}/${netmask}` : text;
  const [addrText = '', maskText] = spec.split('/');
  const addr = parseAddr(addrText);
  if (!addr) throw new Error(`'${spec}' does not appear to be an IPv4 or IPv6 network`);
  const n = bits(addr.version);
  let prefix = n;
  if (maskText !== undefined) {
    if (/^\d+$/.test(maskText)) prefix = Number(maskText);
    else {
      const m = addr.version === 4 ? parseAddr(maskText) : undefined;
      if (m?.version !== 4) throw new Error(`'${spec}' does not appear to be an IPv4 or IPv6 network`);
      const inv = m.value ^ 0xffffffffn;
      let p = -1;
      for (let i = 0; i <= 32; i++) {
        if (maskOf(4, i) === m.value) p = i;
        else if (maskOf(4, i) === inv) p = i;
      }
      if (p < 0) throw new Error(`'${maskText}' is not a valid netmask`);
      prefix = p;
    }
  }
  if (prefix < 0 || prefix > n) throw new Error(`'${maskText}' is not a valid netmask`);
  return { version: addr.version, net: addr.value & maskOf(addr.version, prefix), prefix };
}

export function formatNet(n: IpNet): string {
  return `${formatAddr({ version: n.version, value: n.net })}/${n.prefix}`;
}

export function netmaskOf(n: IpNet): string {
  return formatAddr({ version: n.version, value: maskOf(n.version, n.prefix) });
}

export function broadcastOf(n: IpNet): string {
  const host = (1n << BigInt(bits(n.version) - n.prefix)) - 1n;
  return formatAddr({ version: n.version, value: n.net | host });
}

export function inNet(a: IpAddr, n: IpNet): boolean {
  return a.version === n.version && (a.value & maskOf(n.version, n.prefix)) === n.net;
}

export function isLoopback(a: IpAddr): boolean {
  return a.version === 4 ? a.value >> 24n === 127n : a.value === 1n;
}

const PRIVATE4: readonly string[] = [
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
const PRIVATE6: readonly string[] = [
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

const RESERVED6: readonly string[] = [
  '::/8',
  '100::/8',
  '200::/7',
  '400::/6',
  '800::/5',
  '1000::/4',
  '4000::/3',
  '6000::/3',
  '8000::/3',
  'a000::/3',
  'c000::/3',
  'e000::/4',
  'f000::/5',
  'f800::/6',
  'fe00::/9',
];
const MAPPED = 0xffff00000000n;

/** The IPv4 address an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) carries. */
function ipv4Mapped(a: IpAddr): IpAddr | undefined {
  return a.version === 6 && a.value >> 32n === MAPPED >> 32n
    ? { version: 4, value: a.value & 0xffffffffn }
    : undefined;
}

/** Python 3.11's `ip_address(x).is_private` (an IPv4-mapped address answers for its IPv4 address). */
export function isPrivate(a: IpAddr): boolean {
  const v4 = ipv4Mapped(a);
  if (v4) return isPrivate(v4);
  return within(a, a.version === 4 ? PRIVATE4 : PRIVATE6);
}

/** Python 3.11's `is_global`: not private, and for IPv4 not in the shared space 100.64.0.0/10. */
export function isGlobal(a: IpAddr): boolean {
  const v4 = ipv4Mapped(a) ?? a;
  return !isPrivate(v4) && !(v4.version === 4 && within(v4, ['100.64.0.0/10']));
}

function within(a: IpAddr, nets: readonly string[]): boolean {
  return nets.some((p) => inNet(a, parseNet(p)));
}

/** Python's ordering of addresses or networks of one family: by value. */
export function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An address, or an interface when written with a prefix (`10.0.0.1/8`). */
export interface IpValue extends IpAddr {
  readonly prefix?: number;
}

/** `ipaddress.ip_address(s)`, else `ipaddress.ip_interface(s)` (prefix lengths only); undefined when neither. */
export function parseIp(input: unknown): IpValue | undefined {
  if (typeof input !== 'string') return undefined;
  const [addr = '', prefix, ...more] = input.split('/');
  if (more.length) return undefined;
  const version = isIP(addr);
  if (version !== 4 && version !== 6) return undefined;
  if (prefix !== undefined && (!/^\d+$/.test(prefix) || Number(prefix) > bits(version))) return undefined;
  const value = (parseAddr(addr) as IpAddr).value;
  return prefix === undefined ? { version, value } : { version, value, prefix: Number(prefix) };
}

/** `str()` of a parsed address or interface. */
export function ipText(ip: IpValue): string {
  const a = formatAddr(ip);
  return ip.prefix === undefined ? a : `${a}/${ip.prefix}`;
}

/** The network an address or interface is in (`ip_network(x, strict=False)`). */
export function networkOf(ip: IpValue): IpNet {
  const prefix = ip.prefix ?? bits(ip.version);
  return { version: ip.version, net: ip.value & maskOf(ip.version, prefix), prefix };
}

export function networkSize(ip: IpValue): number {
  return Number(1n << BigInt(bits(ip.version) - networkOf(ip).prefix));
}

/** `ip_network(x, strict=False).hosts()` as text; undefined when there are more than `max`. */
export function networkHosts(ip: IpValue, max: number): string[] | undefined {
  const { net, prefix } = networkOf(ip);
  const size = 1n << BigInt(bits(ip.version) - prefix);
  if (size > BigInt(max) + 2n) return undefined;
  if (size === 1n) return [formatAddr({ version: ip.version, value: net })];
  let first = net;
  let last = net + size - 1n;
  if (size !== 2n) {
    first += 1n;
    if (ip.version === 4) last -= 1n;
  }
  const out: string[] = [];
  for (let a = first; a <= last; a++) out.push(formatAddr({ version: ip.version, value: a }));
  return out;
}

/** Whether an address (its prefix ignored) is in the network of an address or interface. */
export function inNetwork(ip: IpValue, net: IpValue): boolean {
  return inNet(ip, networkOf(net));
}

/** The `ipaddress` properties Salt's `ipaddr` options test (`private`, `loopback`, `multicast`, ...). */
export function ipProperty(ip: IpValue, name: string): boolean {
  const v4 = ip.version === 4;
  switch (name) {
    case 'private':
      return isPrivate(ip);
    case 'global':
      return isGlobal(ip);
    case 'loopback':
      return within(ip, v4 ? ['127.0.0.0/8'] : ['::1/128']);
    case 'multicast':
      return within(ip, v4 ? ['224.0.0.0/4'] : ['ff00::/8']);
    case 'link_local':
      return within(ip, v4 ? ['169.254.0.0/16'] : ['fe80::/10']);
    case 'reserved':
      return within(ip, v4 ? ['240.0.0.0/4'] : RESERVED6);
    case 'site_local':
      return !v4 && within(ip, ['fec0::/10']);
    case 'unspecified':
      return ip.value === 0n;
    default:
      return true;
  }
}
