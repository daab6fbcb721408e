/**
 * Python's `ipaddress` for what Salt's network functions ask of it: parse IPv4 and IPv6
 * addresses and networks (`strict=False`, prefix or dotted netmask), print them as Python does
 * (RFC 5952 for IPv6), sort them, and tell loopback and private addresses.
 */
import { isIPv4, isIPv6 } from 'node:net';

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

const PRIVATE: readonly string[] = [
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

/** Python 3.11's `ip_address(x).is_private`. */
export function isPrivate(a: IpAddr): boolean {
  return PRIVATE.some((p) => inNet(a, parseNet(p)));
}

/** Python's ordering of addresses or networks of one family: by value. */
export function compareBig(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
