/**
 * Salt's `fqdn_ip4`, `fqdn_ip6` and `fqdns` grains, answered from `/etc/hosts` alone (the
 * resolver's `files` source): the grains never wait on DNS, as the host name grains do not.
 */
import { isIPv4, isIPv6 } from 'node:net';

interface HostsLine {
  readonly addr: string;
  readonly names: readonly string[];
}

function hostsLines(hostsText: string): HostsLine[] {
  const out: HostsLine[] = [];
  for (const raw of hostsText.split('\n')) {
    const [addr, ...names] = (raw.split('#')[0] ?? '').trim().split(/\s+/);
    if (addr && names.length > 0) out.push({ addr, names });
  }
  return out;
}

/** The addresses of family `family` that `/etc/hosts` gives `name`, in file order, once each. */
export function hostsAddresses(hostsText: string, name: string, family: 4 | 6): string[] {
  const isFamily = family === 4 ? isIPv4 : isIPv6;
  const found = hostsLines(hostsText)
    .filter((l) => isFamily(l.addr) && l.names.includes(name))
    .map((l) => l.addr);
  return [...new Set(found)];
}

/** `fqdn_ip4`/`fqdn_ip6`: the fqdn's addresses, empty for a family the host has no address of. */
export function fqdnIpGrains(
  fqdn: string,
  ipv4: readonly string[],
  ipv6: readonly string[],
  hostsText: string,
): { fqdn_ip4: string[]; fqdn_ip6: string[] } {
  return {
    fqdn_ip4: ipv4.length > 0 ? hostsAddresses(hostsText, fqdn, 4) : [],
    fqdn_ip6: ipv6.length > 0 ? hostsAddresses(hostsText, fqdn, 6) : [],
  };
}

function isLoopback(addr: string): boolean {
  return addr.startsWith('127.') || addr === '::1';
}

/** Python's `socket.getfqdn(name)` against the hosts lines: the first dotted name of its entry. */
function hostsFqdn(lines: readonly HostsLine[], name: string): string {
  if (name.includes('.')) return name;
  const entry = lines.find((l) => l.names.includes(name));
  return entry?.names.find((n) => n.includes('.')) ?? name;
}

/** `fqdns`: the names of the host's non-loopback addresses (reverse look-up), sorted. */
export function fqdnsGrain(addresses: readonly string[], hostsText: string): { fqdns: string[] } {
  const lines = hostsLines(hostsText);
  const names = new Set<string>();
  for (const addr of addresses) {
    if (isLoopback(addr)) continue;
    const first = lines.find((l) => l.addr === addr)?.names[0];
    if (first) names.add(hostsFqdn(lines, first));
  }
  return { fqdns: [...names].sort() };
}
