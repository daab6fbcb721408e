/**
 * The client address that per-address limits count (login back-off, connection caps): an
 * IPv4 address as it is (also when IPv4-mapped in IPv6), an IPv6 address by its /64 prefix,
 * since one host commonly holds a whole /64 and could otherwise take a fresh address per try.
 * `trustProxy` is off, so this is the peer of the TCP connection, never a header's claim.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address, as numbers (undefined when it does not parse). */
function groups6(ip: string): number[] | undefined {
  const [head = '', tail, extra] = ip.split('::');
  if (extra !== undefined) return undefined;
  const part = (s: string) => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (g.includes('.')) {
        const v4 = g.split('.').map(Number);
        out.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
      } else out.push(Number.parseInt(g, 16));
    }
    return out;
  };
  const h = part(head);
  if (tail === undefined) return h.length === 8 ? h : undefined;
  const t = part(tail);
  return [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t];
}

/** `ipv4:<a.b.c.d>`, `ipv6:<first four groups>::/64`, or `other:<as given>`. */
export function clientAddress(ip: string | undefined): string {
  const bare = (ip ?? '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped?.[1]) return `ipv4:${mapped[1]}`;
  if (isIPv4(bare)) return `ipv4:${bare}`;
  const g = isIPv6(bare) ? groups6(bare) : undefined;
  if (g)
    return `ipv6:${g
      .slice(0, 4)
      .map((n) => n.toString(16))
      .join(':')}::/64`;
  return `other:${bare}`;
}
