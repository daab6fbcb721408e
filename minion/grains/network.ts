/**
 * Host name and network grains without DNS: `localhost`, `fqdn` (the canonical name from
 * `/etc/hosts`, never a resolver query), `host`, `domain`, and the interface grains from the
 * kernel's interface list and `/sys/class/net`.
 */
import { readdirSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import os from 'node:os';
import { readText } from './hardware.js';

/** The canonical name `/etc/hosts` gives `name`, or undefined. */
export function hostsCanonicalName(hostsText: string, name: string): string | undefined {
  for (const raw of hostsText.split('\n')) {
    const names = (raw.split('#')[0] ?? '').trim().split(/\s+/).slice(1);
    if (names.includes(name)) return names[0];
  }
  return undefined;
}

/** Salt's `hostname()` grains, with the canonical name looked up locally only. */
export function hostnameGrains(
  hostname: string = os.hostname(),
  hostsText: string = readText('/etc/hosts') ?? '',
): Record<string, string> {
  let fqdn = hostname || 'localhost.localdomain';
  if (!fqdn.includes('.')) {
    const canonical = hostsCanonicalName(hostsText, fqdn);
    if (canonical) fqdn = canonical;
  }
  const dot = fqdn.indexOf('.');
  return {
    localhost: hostname,
    fqdn,
    host: dot < 0 ? fqdn : fqdn.slice(0, dot),
    domain: dot < 0 ? '' : fqdn.slice(dot + 1),
  };
}

/** An IPv6 address as a number, for Python's `ipaddress` ordering. */
function ipv6Value(addr: string): bigint {
  const [head = '', tail] = addr.split('::');
  const parse = (s: string): string[] => {
    if (!s) return [];
    const parts = s.split(':');
    const last = parts[parts.length - 1] ?? '';
    if (isIPv4(last)) {
      const o = last.split('.').map(Number);
      parts.splice(
        -1,
        1,
        (((o[0] ?? 0) << 8) | (o[1] ?? 0)).toString(16),
        (((o[2] ?? 0) << 8) | (o[3] ?? 0)).toString(16),
      );
    }
    return parts;
  };
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? h : [...h, ...new Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g || '0', 16)), 0n);
}

function ipv4Value(addr: string): number {
  return addr.split('.').reduce((acc, o) => acc * 256 + Number(o), 0);
}

/** Unique addresses in numeric order, as Salt's `ip_addrs`/`ip_addrs6` list them. */
export function sortAddresses(addrs: Iterable<string>, family: 4 | 6): string[] {
  const unique = [...new Set(addrs)];
  if (family === 4) return unique.sort((a, b) => ipv4Value(a) - ipv4Value(b));
  return unique.sort((a, b) => {
    const d = ipv6Value(a) - ipv6Value(b);
    return d < 0n ? -1 : d > 0n ? 1 : 0;
  });
}

/** The interface grains: addresses per interface, MAC addresses, and the address lists. */
export function networkGrains(
  ifaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
  sysNet = '/sys/class/net',
): Record<string, unknown> {
  let names: string[] = [];
  try {
    names = readdirSync(sysNet);
  } catch {
    names = [];
  }
  const all = [...new Set([...names, ...Object.keys(ifaces)])].sort();
  const ip: Record<string, string[]> = {};
  const ip4: Record<string, string[]> = {};
  const ip6: Record<string, string[]> = {};
  const hw: Record<string, string> = {};
  const v4: string[] = [];
  const v6: string[] = [];
  for (const name of all) {
    const infos = ifaces[name] ?? [];
    const a4 = infos.filter((i) => i.family === 'IPv4').map((i) => i.address);
    const a6 = infos.filter((i) => i.family === 'IPv6').map((i) => i.address);
    ip[name] = [...a4, ...a6];
    ip4[name] = a4;
    ip6[name] = a6;
    v4.push(...a4);
    v6.push(...a6);
    const mac = readText(`${sysNet}/${name}/address`)?.trim() || infos[0]?.mac;
    if (mac) hw[name] = mac;
  }
  return {
    ipv4: sortAddresses(v4, 4),
    ipv6: sortAddresses(v6, 6),
    ip_interfaces: ip,
    ip4_interfaces: ip4,
    ip6_interfaces: ip6,
    hwaddr_interfaces: hw,
  };
}
