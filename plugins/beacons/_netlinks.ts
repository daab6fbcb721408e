/**
 * The minion's network interfaces as pyroute2's IPDB-style view shows them (what Salt's
 * `network_settings` beacon compares): read from `ip -d -j addr`, `ip -j neigh` and `/sys`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One attribute's value: what Salt's beacon gets back from `ast.literal_eval(repr(value))`. */
export type AttrValue = string | number | null | AttrValue[];

const IFF: Record<string, number> = {
  UP: 0x1,
  BROADCAST: 0x2,
  DEBUG: 0x4,
  LOOPBACK: 0x8,
  POINTOPOINT: 0x10,
  NOTRAILERS: 0x20,
  RUNNING: 0x40,
  NOARP: 0x80,
  PROMISC: 0x100,
  ALLMULTI: 0x200,
  MASTER: 0x400,
  SLAVE: 0x800,
  MULTICAST: 0x1000,
  PORTSEL: 0x2000,
  AUTOMEDIA: 0x4000,
  DYNAMIC: 0x8000,
  LOWER_UP: 0x10000,
  DORMANT: 0x20000,
  ECHO: 0x40000,
};

interface IpLink {
  ifindex: number;
  ifname: string;
  flags?: string[];
  mtu?: number;
  qdisc?: string;
  operstate?: string;
  master?: string;
  txqlen?: number;
  address?: string;
  broadcast?: string;
  promiscuity?: number;
  num_tx_queues?: number;
  num_rx_queues?: number;
  linkinfo?: { info_kind?: string };
  addr_info?: Array<{ local?: string; prefixlen?: number }>;
}

function ipJson<T>(args: string[]): T[] {
  return JSON.parse(execFileSync('ip', ['-j', ...args], { encoding: 'utf8' }) || '[]') as T[];
}

function sysNumber(ifname: string, file: string, fallback: number): number {
  try {
    const v = readFileSync(`/sys/class/net/${ifname}/${file}`, 'utf8').trim();
    return v.startsWith('0x') ? parseInt(v, 16) : Number(v);
  } catch {
    return fallback;
  }
}

function flagsOf(link: IpLink): number {
  let flags = 0;
  for (const f of link.flags ?? []) flags |= IFF[f] ?? 0;
  // `ip` leaves RUNNING out: the kernel sets it while the link is up and operationally up
  if (flags & IFF.UP! && ['UP', 'UNKNOWN'].includes(link.operstate ?? '')) flags |= IFF.RUNNING!;
  return flags;
}

/** Every interface by name, each with the attributes Salt's beacon can watch. */
export function interfaces(): Map<string, Record<string, AttrValue>> {
  const links = ipJson<IpLink>(['-d', 'addr', 'show']);
  const neigh = ipJson<{ dst?: string; dev?: string }>(['neigh', 'show', 'nud', 'all']);
  const out = new Map<string, Record<string, AttrValue>>();
  for (const l of links) {
    out.set(l.ifname, {
      family: 0,
      txqlen: l.txqlen ?? 0,
      ipdb_scope: 'system',
      index: l.ifindex,
      operstate: l.operstate ?? 'UNKNOWN',
      group: sysNumber(l.ifname, 'netdev_group', 0),
      carrier_changes: sysNumber(l.ifname, 'carrier_changes', 0),
      ipaddr: (l.addr_info ?? []).map((a) => [a.local ?? '', a.prefixlen ?? 0]),
      neighbours: neigh.filter((n) => n.dev === l.ifname).map((n) => n.dst ?? ''),
      ifname: l.ifname,
      promiscuity: l.promiscuity ?? 0,
      linkmode: sysNumber(l.ifname, 'link_mode', 0),
      broadcast: l.broadcast ?? null,
      address: l.address ?? null,
      num_tx_queues: l.num_tx_queues ?? 1,
      ipdb_priority: 0,
      kind: l.linkinfo?.info_kind ?? null,
      qdisc: l.qdisc ?? null,
      mtu: l.mtu ?? 0,
      num_rx_queues: l.num_rx_queues ?? 1,
      carrier: sysNumber(l.ifname, 'carrier', 1),
      flags: flagsOf(l),
      ifi_type: sysNumber(l.ifname, 'type', 0),
      ports: links.filter((p) => p.master === l.ifname).map((p) => p.ifindex),
    });
  }
  return out;
}
