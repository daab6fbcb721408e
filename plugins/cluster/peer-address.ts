/**
 * `cluster_peers` entries (`host`, `host:port`, `[v6]:port`) as hosts and ports, and the
 * addresses a peer's connection may come from (names resolved once, at the start).
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { CLUSTER_ERR_PEER_ADDRESS } from './errors.js';

export interface PeerAddress {
  /** The entry as configured. */
  entry: string;
  host: string;
  port: number;
}

export function parsePeer(entry: string, defaultPort: number): PeerAddress {
  const text = entry.trim();
  let host = text;
  let port = defaultPort;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1]!;
    if (bracketed[2]) port = Number(bracketed[2]);
  } else if (isIP(text) !== 6) {
    const m = /^([^:\s]+)(?::(\d+))?$/.exec(text);
    if (!m) throw new CLUSTER_ERR_PEER_ADDRESS(entry);
    host = m[1]!;
    if (m[2]) port = Number(m[2]);
  }
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) throw new CLUSTER_ERR_PEER_ADDRESS(entry);
  return { entry, host, port };
}

/** An address as a connection reports it: IPv4-mapped IPv6 turned back into IPv4. */
export function plainAddress(address: string | undefined): string {
  if (!address) return '';
  return address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}

/** Every address the peers' names resolve to (an IP stays itself), keyed to its peer. */
export async function peerSources(peers: readonly PeerAddress[]): Promise<Map<string, PeerAddress>> {
  const out = new Map<string, PeerAddress>();
  for (const peer of peers) {
    if (isIP(peer.host)) {
      out.set(peer.host, peer);
      continue;
    }
    const found = await lookup(peer.host, { all: true }).catch(() => []);
    for (const { address } of found) out.set(plainAddress(address), peer);
  }
  return out;
}

/** The addresses this host answers on: its interfaces', and `iface` itself when it is not a wildcard. */
export function ownAddresses(iface: string): Set<string> {
  const out = new Set<string>();
  for (const list of Object.values(networkInterfaces()))
    for (const a of list ?? []) out.add(plainAddress(a.address));
  const bare = iface.replace(/^\[|\]$/g, '');
  if (bare && bare !== '0.0.0.0' && bare !== '::') out.add(bare);
  return out;
}

/**
 * The peers that are not this master: an entry naming one of `own` addresses with this master's
 * pool port is this master (one `cluster_peers` list may serve every master's config). With
 * `interface` bound to one address, only that address is this master.
 */
export async function otherPeers(
  peers: readonly PeerAddress[],
  own: ReadonlySet<string>,
  port: number,
): Promise<PeerAddress[]> {
  const out: PeerAddress[] = [];
  for (const peer of peers) {
    const addresses = isIP(peer.host)
      ? [peer.host]
      : (await lookup(peer.host, { all: true }).catch(() => [])).map((a) => plainAddress(a.address));
    if (peer.port === port && addresses.some((a) => own.has(a))) continue;
    out.push(peer);
  }
  return out;
}
