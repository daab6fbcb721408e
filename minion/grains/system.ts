/**
 * System grains read from files alone (no child process, no DNS), as Salt 3006 reports them
 * on Linux: `disks`/`ssds` (`grains/disks.py`), `dns` (`utils/dns.parse_resolv`), `ip_gw`,
 * `ip4_gw`, `ip6_gw` (`default_gateway`, here from the kernel's routing tables rather than
 * `ip route`), `kernelparams`, `efi`/`efi-secure-boot`, `transactional`, `zfs_support`/
 * `zfs_feature_flags`, and `ps`.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { which } from '../../modules/_which.js';
import { readText } from './hardware.js';

/** Salt's `disks` and `ssds`: block devices that are not virtual, by `queue/rotational`. */
export function diskGrains(sysBlock = '/sys/block'): { disks: string[]; ssds: string[] } {
  const out = { disks: [] as string[], ssds: [] as string[] };
  let names: string[] = [];
  try {
    names = readdirSync(sysBlock).sort();
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      if (readlinkSync(join(sysBlock, name)).startsWith('../devices/virtual/')) continue;
      const flag = readFileSync(join(sysBlock, name, 'queue', 'rotational'), 'utf8').slice(0, 1);
      if (flag === '0') out.ssds.push(name);
      else if (flag === '1') out.disks.push(name);
    } catch {
      // not a link, or no rotational flag: Salt skips it too
    }
  }
  return out;
}

export interface ResolvConf {
  nameservers: string[];
  ip4_nameservers: string[];
  ip6_nameservers: string[];
  sortlist: string[];
  domain: string;
  search: string[];
  options: string[];
}

/** Salt's `parse_resolv`: the resolver configuration, in Salt's keys and order. */
export function parseResolv(text: string): ResolvConf {
  const r: ResolvConf = {
    nameservers: [],
    ip4_nameservers: [],
    ip6_nameservers: [],
    sortlist: [],
    domain: '',
    search: [],
    options: [],
  };
  for (const line of text.split('\n')) {
    const words = line.trim().split(/\s+/);
    const directive = words[0]?.toLowerCase() ?? '';
    const args: string[] = [];
    for (const w of words.slice(1)) {
      if (w.startsWith('#') || w.startsWith(';')) break;
      args.push(w);
    }
    const first = args[0];
    if (first === undefined) continue;
    if (directive === 'nameserver') {
      const version = isIP(first);
      if (version === 0) continue;
      if (!r.nameservers.includes(first)) r.nameservers.push(first);
      const list = version === 4 ? r.ip4_nameservers : r.ip6_nameservers;
      if (!list.includes(first)) list.push(first);
    } else if (directive === 'domain') r.domain = first;
    else if (directive === 'search') r.search = args;
    else if (directive === 'sortlist') {
      for (const a of args) if (!r.sortlist.includes(a)) r.sortlist.push(a);
    } else if (directive === 'options' && !r.options.includes(first)) r.options.push(first);
  }
  return r;
}

/** `1.2.0.192` → `192.0.2.1`: an address from /proc/net/route's little-endian hex. */
function ipv4FromHex(hex: string): string {
  const n = Number.parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, (n >>> 24) & 255].join('.');
}

/** `fd000000000000000000000000000001` → `fd00::1`. */
function ipv6FromHex(hex: string): string {
  const groups = (hex.match(/.{4}/g) ?? []).map((g) => Number.parseInt(g, 16).toString(16));
  // the longest run of zero groups becomes `::`, as Python's ipaddress prints it
  let best = [-1, 0];
  for (let i = 0; i < groups.length; ) {
    let j = i;
    while (j < groups.length && groups[j] === '0') j++;
    if (j - i > best[1]! && j - i > 1) best = [i, j - i];
    i = j === i ? i + 1 : j;
  }
  if (best[0]! < 0) return groups.join(':');
  return `${groups.slice(0, best[0]).join(':')}::${groups.slice(best[0]! + best[1]!).join(':')}`;
}

/**
 * Salt's `default_gateway` grains from the kernel's routing tables: the first default route
 * of each family, its gateway address, or `true` when the route has none.
 */
export function gatewayGrains(
  route4: string | undefined,
  route6: string | undefined,
): Record<string, unknown> {
  let ip4: string | boolean = false;
  for (const line of (route4 ?? '').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    // Iface Destination Gateway Flags ... Mask: a default route has destination and mask 0
    if (f.length < 8 || f[1] !== '00000000' || f[7] !== '00000000') continue;
    ip4 = f[2] && f[2] !== '00000000' ? ipv4FromHex(f[2]) : true;
    break;
  }
  let ip6: string | boolean = false;
  for (const line of (route6 ?? '').split('\n')) {
    const f = line.trim().split(/\s+/);
    // dest destlen src srclen nexthop metric refcnt use flags iface: ::/0, not the loopback's
    if (f.length < 10 || f[0] !== '0'.repeat(32) || f[1] !== '00' || f[9] === 'lo') continue;
    ip6 = f[4] && f[4] !== '0'.repeat(32) ? ipv6FromHex(f[4]) : true;
    break;
  }
  return { ip_gw: ip4 !== false || ip6 !== false, ip4_gw: ip4, ip6_gw: ip6 };
}

/** Salt's `kernelparams`: `[name, value]` pairs of the kernel command line (value `null` without `=`). */
export function kernelParams(cmdline: string): Array<[string, string | null]> {
  const out: Array<[string, string | null]> = [];
  // shell-like words: double or single quotes group, and are dropped
  for (const m of cmdline.matchAll(/(?:[^\s"']+|"[^"]*"|'[^']*')+/g)) {
    const word = m[0].replace(/"([^"]*)"|'([^']*)'/g, '$1$2');
    const parts = word.split('=');
    out.push([parts[0] ?? '', parts.length === 2 ? (parts[1] ?? '').replace(/^"|"$/g, '') : null]);
  }
  return out;
}

/** Salt's `salt.utils.path.which(name)` is not None. */
const onPath = (name: string): boolean => which(name) !== null;

/** `efi` and `efi-secure-boot` (Salt's `extra.uefi`). */
function efiGrains(): Record<string, boolean> {
  const dir = ['/sys/firmware/efi/efivars', '/sys/firmware/efi/vars'].find((d) => existsSync(d));
  if (!dir) return { efi: false, 'efi-secure-boot': false };
  let secure = false;
  try {
    const entries = readdirSync(dir).filter((e) => e.startsWith('SecureBoot-'));
    if (entries.length === 1) {
      const file = dir.endsWith('efivars') ? join(dir, entries[0]!) : join(dir, entries[0]!, 'data');
      const data = readFileSync(file);
      secure = data[data.length - 1] === 1;
    }
  } catch {
    // readable by root only
  }
  return { efi: true, 'efi-secure-boot': secure };
}

/**
 * Salt's `systemd` grain from `systemctl --version`: its version and feature line, or
 * `UNDEFINED` and `''` where the output is not systemd's (Salt adds the grain wherever
 * `systemctl` and `localectl` are installed, booted with systemd or not).
 */
export function systemdGrain(output: string | undefined): { version: string; features: string } {
  const lines = (output ?? '').split(/\r?\n/);
  let version = 'UNDEFINED';
  let features = '';
  if (lines[0]?.startsWith('systemd ')) {
    version = lines[0].split(/\s+/)[1] ?? version;
    features = lines[1] ?? '';
  }
  return { version, features };
}

function systemctlVersion(): string | undefined {
  try {
    return execFileSync('systemctl', ['--version'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    });
  } catch {
    return undefined;
  }
}

/** The grains of this file, for this machine. */
export function systemGrains(): Record<string, unknown> {
  const g: Record<string, unknown> = {};
  Object.assign(g, gatewayGrains(readText('/proc/net/route'), readText('/proc/net/ipv6_route')));
  const resolv = readText('/run/systemd/resolve/resolv.conf') ?? readText('/etc/resolv.conf');
  if (resolv !== undefined) g.dns = parseResolv(resolv);
  const cmdline = readText('/proc/cmdline');
  if (cmdline !== undefined) g.kernelparams = kernelParams(cmdline);
  g.ps = 'ps -efHww';
  Object.assign(g, diskGrains());
  g.transactional = onPath('transactional-update');
  Object.assign(g, efiGrains());
  const zfs = (existsSync('/sys/module/zfs') || onPath('zfs-fuse')) && onPath('zpool');
  g.zfs_support = zfs;
  g.zfs_feature_flags = zfs && onPath('man') && existsSync('/usr/share/man/man7');
  if (onPath('systemctl') && onPath('localectl')) g.systemd = systemdGrain(systemctlVersion());
  return g;
}
