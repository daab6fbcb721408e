/**
 * Salt's `salt.utils.network` interface data on Linux: `ip link show` and `ip addr show`
 * parsed as `_interfaces_ip` does, and the address, subnet and TCP-connection views built on it.
 */
import { readFileSync } from 'node:fs';
import { fnmatch } from './_fnmatch.js';
import {
  compareBig,
  formatAddr,
  formatNet,
  type IpNet,
  isLoopback,
  parseAddr,
  parseNet,
} from './_network-ip.js';
import { pySplit, runProgram } from './_status-proc.js';

export type Iface = Record<string, unknown> & {
  up?: boolean;
  hwaddr?: string;
  inet?: Array<Record<string, unknown>>;
  inet6?: Array<Record<string, unknown>>;
  secondary?: Array<Record<string, unknown>>;
};

/** Salt's `cidr_to_ipv4_netmask`. */
export function cidrToNetmask(cidr: number): string {
  if (!(cidr >= 1 && cidr <= 32)) return '';
  const out: number[] = [];
  let left = cidr;
  for (let i = 0; i < 4; i++) {
    out.push(left >= 8 ? 255 : 256 - 2 ** (8 - left));
    left = Math.max(0, left - 8);
  }
  return out.join('.');
}

/** Salt's `_interfaces_ip` over the text of `ip link show` and `ip addr show`. */
export function parseIpOutput(out: string): Record<string, Iface> {
  const ret: Record<string, Iface> = {};
  for (const group of out.split(/\r?\n(?=\d)/)) {
    let iface: string | undefined;
    const data: Iface = {};
    for (const line of group.split(/\r?\n/)) {
      if (!line.includes(' ')) continue;
      const m = /^\d*:\s+([\w.-]+)(?:@)?([\w.-]+)?:\s+<(.+)>/.exec(line);
      if (m) {
        iface = m[1];
        data.up = m[3]!.split(',').includes('UP');
        if (m[2]) data.parent = m[2];
        continue;
      }
      const cols = pySplit(line);
      if (cols.length < 2) continue;
      const [type, value] = cols as [string, string];
      const label = cols[cols.length - 1];
      if (type === 'inet' || type === 'inet6') {
        const [ip, cidr] = value.includes('/') ? value.split('/') : [value, '32'];
        const obj: Record<string, unknown> = {};
        const secondary = cols.includes('secondary');
        if (secondary) obj.type = type;
        obj.address = ip;
        if (type === 'inet') {
          obj.netmask = cidrToNetmask(Number(cidr));
          obj.broadcast = cols.includes('brd') ? cols[cols.indexOf('brd') + 1] : null;
          obj.label = label;
        } else {
          obj.prefixlen = cidr;
          obj.scope = cols.includes('scope') ? cols[cols.indexOf('scope') + 1] : null;
        }
        const key = secondary ? 'secondary' : type;
        data[key] ??= [];
        data[key]!.push(obj);
      } else if (type.startsWith('link')) data.hwaddr = value;
    }
    if (iface) ret[iface] = data;
  }
  return ret;
}

export async function interfaces(): Promise<Record<string, Iface>> {
  const link = await runProgram(['ip', 'link', 'show']);
  const addr = await runProgram(['ip', 'addr', 'show']);
  return parseIpOutput(`${link.stdout}${link.stderr}\n${addr.stdout}${addr.stderr}`);
}

/** Salt's `_get_iface_info`: the interfaces, or the error text for a missing one. */
export async function ifaceInfo(iface: string): Promise<{ info?: Record<string, Iface>; error?: string }> {
  const info = await interfaces();
  if (Object.hasOwn(info, iface)) return { info };
  return {
    error: `Interface "${iface}" not in available interfaces: "${Object.keys(info).join('", "')}"`,
  };
}

/** Salt's `_get_ips`: the addresses of a family (secondary ones too) of every interface given. */
export function addrsOf(
  ifaces: Record<string, Iface>,
  proto: 'inet' | 'inet6',
): Array<Record<string, unknown>> {
  const out: Array<Record<string, unknown>> = [];
  for (const info of Object.values(ifaces)) {
    out.push(...(info[proto] ?? []));
    out.push(...(info.secondary ?? []).filter((a) => a.type === proto));
  }
  return out;
}

/** Salt's `_filter_interfaces`: interfaces whose name matches one of the globs. */
export function filterIfaces(ifaces: Record<string, Iface>, interface_?: unknown): Record<string, Iface> {
  if (interface_ === undefined || interface_ === null) return ifaces;
  const pats = Array.isArray(interface_) ? interface_.map(String) : String(interface_).split(',');
  return Object.fromEntries(Object.entries(ifaces).filter(([k]) => pats.some((p) => fnmatch(k, p))));
}

/** Salt's `_ip_addrs`: sorted unique addresses of a family, loopback only when asked. */
export function ipAddrs(
  ifaces: Record<string, Iface>,
  proto: 'inet' | 'inet6',
  includeLoopback: boolean,
): string[] {
  const seen = new Map<bigint, string>();
  for (const a of addrsOf(ifaces, proto)) {
    const ip = parseAddr(String(a.address));
    if (!ip || (isLoopback(ip) && !includeLoopback)) continue;
    seen.set(ip.value, formatAddr(ip));
  }
  return [...seen.entries()].sort((x, y) => compareBig(x[0], y[0])).map(([, s]) => s);
}

/** Salt's `_subnets`: sorted networks of the non-loopback addresses. */
export function subnetsOf(ifaces: Record<string, Iface>, proto: 'inet' | 'inet6'): string[] {
  const nets = new Map<string, IpNet>();
  for (const a of addrsOf(ifaces, proto)) {
    const mask = proto === 'inet' ? a.netmask : a.prefixlen;
    const ip = parseAddr(String(a.address));
    if (!ip || isLoopback(ip)) continue;
    const net = parseNet(String(a.address), mask ? String(mask) : proto === 'inet' ? '32' : '128');
    nets.set(formatNet(net), net);
  }
  return [...nets.values()].sort((x, y) => compareBig(x.net, y.net) || x.prefix - y.prefix).map(formatNet);
}

/** Salt's `hex2ip` of a /proc/net/tcp address (little-endian words). */
export function hex2ip(hex: string): string {
  if (hex.length === 32) {
    const words: string[] = [];
    for (let i = 0; i < 32; i += 8) {
      const p = hex.slice(i, i + 8).match(/../g)!;
      words.push(`${p[3]}${p[2]}:${p[1]}${p[0]}`);
    }
    const a = parseAddr(words.join(':'));
    if (!a) return hex;
    if (a.value >> 32n === 0xffffn) return formatAddr({ version: 4, value: a.value & 0xffffffffn });
    return formatAddr(a);
  }
  const n = Number.parseInt(hex, 16);
  if (Number.isNaN(n)) return hex;
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
}

/** Salt's `active_tcp`: established connections from /proc/net/tcp and tcp6, numbered from 0. */
export function activeTcp(): Record<string, Record<string, unknown>> {
  const ret: Record<string, Record<string, unknown>> = {};
  let n = 0;
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n')) {
      const c = pySplit(line);
      if (c.length < 4 || c[0] === 'sl') continue;
      if (Number.parseInt(c[3]!, 16) !== 1) continue;
      const [la, lp] = c[1]!.split(':');
      const [ra, rp] = c[2]!.split(':');
      ret[String(n++)] = {
        local_addr: hex2ip(la!),
        local_port: Number.parseInt(lp!, 16),
        remote_addr: hex2ip(ra!),
        remote_port: Number.parseInt(rp!, 16),
      };
    }
  }
  return ret;
}
