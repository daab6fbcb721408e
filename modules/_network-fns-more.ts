/**
 * More of Salt's `network` module, merged into `modules/network.ts`: reverse pointers and hex of
 * addresses, the networks and labels of this host's addresses, FQDNs by reverse lookup (NSS,
 * through `getent`), NIC ring buffers (`ethtool -g`/`-G`), traceroute parsed as Salt parses it,
 * and Wake-on-LAN packets.
 */
import { createSocket } from 'node:dgram';
import { existsSync } from 'node:fs';
import {
  defineFunction,
  type ExecContext,
  SALT_ERR_EXEC_VALUE,
  SALT_ERR_INVOCATION,
} from '../kernel/index.js';
import { float64 } from '../kernel/util.js';
import { pyFlag } from './_coerce.js';
import { addrsOf, filterIfaces, type Iface, interfaces, ipAddrs } from './_network-ifaces.js';
import {
  compareBig,
  formatAddr,
  formatNet,
  type IpNet,
  isLoopback,
  netmaskOf,
  parseAddr,
  parseNet,
} from './_network-ip.js';
import { parsePyInt } from './_py-int.js';
import { pySplit, runProgram } from './_status-proc.js';

/** Salt's `sanitize_host`: only the characters a host name or address may hold. */
export function sanitizeHost(host: string): string {
  return host.replace(/[^A-Za-z0-9.\-:_]/g, '').replace(/^-+/, '');
}

const ETHTOOL = '/sbin/ethtool';

/** Python's `ipaddress.ip_address(x).reverse_pointer` (an int is an IPv4 address below 2**32). */
export function reversePointer(input: unknown): string {
  let text: string;
  if (typeof input === 'number' && Number.isInteger(input) && input >= 0) {
    const v = BigInt(input);
    text = formatAddr(v < 1n << 32n ? { version: 4, value: v } : { version: 6, value: v });
  } else text = String(input);
  const a = typeof input === 'string' || typeof input === 'number' ? parseAddr(text) : undefined;
  if (!a || text.includes('%')) {
    const repr = typeof input === 'string' ? `'${input}'` : String(input);
    throw new SALT_ERR_EXEC_VALUE(`${repr} does not appear to be an IPv4 or IPv6 address`);
  }
  if (a.version === 4) return `${formatAddr(a).split('.').reverse().join('.')}.in-addr.arpa`;
  return `${a.value.toString(16).padStart(32, '0').split('').reverse().join('.')}.ip6.arpa`;
}

/** Salt's `iphexval`: each dot-separated part as `%02X` of Python's `int()`. */
export function ipHexVal(ip: unknown): string {
  if (typeof ip !== 'string') {
    throw new SALT_ERR_EXEC_VALUE(`AttributeError: '${pyTypeOf(ip)}' object has no attribute 'split'`);
  }
  return ip
    .split('.')
    .map((part) => {
      const t = part.trim();
      if (!/^[-+]?\d+(_\d+)*$/.test(t)) {
        throw new SALT_ERR_EXEC_VALUE(`invalid literal for int() with base 10: '${part}'`);
      }
      const n = BigInt(t.replace(/_/g, ''));
      // `%02X`: the sign counts toward the width of 2
      return n < 0n ? `-${(-n).toString(16).toUpperCase()}` : n.toString(16).toUpperCase().padStart(2, '0');
    })
    .join('');
}

function pyTypeOf(v: unknown): string {
  if (v === null || v === undefined) return 'NoneType';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'list' : 'dict';
}

/** Salt's `_ip_networks`: the networks of the chosen interfaces' addresses, sorted, or by name with details. */
function ipNetworks(
  ifaces: Record<string, Iface>,
  proto: 'inet' | 'inet6',
  includeLoopback: boolean,
  verbose: boolean,
): string[] | Record<string, Record<string, unknown>> {
  const nets = new Map<string, IpNet>();
  for (const a of addrsOf(ifaces, proto)) {
    const mask = a[proto === 'inet' ? 'netmask' : 'prefixlen'];
    if (!a.address || !mask) continue;
    let net: IpNet;
    try {
      net = parseNet(String(a.address), String(mask));
    } catch {
      continue;
    }
    const base = { version: net.version, value: net.net };
    if (isLoopback(base) && !includeLoopback) continue;
    nets.set(formatNet(net), net);
  }
  const sorted = [...nets.values()].sort((x, y) => compareBig(x.net, y.net) || x.prefix - y.prefix);
  if (!verbose) return sorted.map(formatNet);
  const size = (n: IpNet) => 2 ** ((n.version === 4 ? 32 : 128) - n.prefix);
  return Object.fromEntries(
    sorted.map((n) => [
      formatNet(n),
      {
        address: formatAddr({ version: n.version, value: n.net }),
        netmask: netmaskOf(n),
        num_addresses: n.version === 6 && n.prefix < 75 ? float64(size(n)) : size(n),
        prefixlen: n.prefix,
      },
    ]),
  );
}

/** `getent hosts <key>` (NSS: /etc/hosts, then DNS): the names of the first entry, or undefined. */
async function nssHosts(key: string): Promise<string[] | undefined> {
  const r = await runProgram(['getent', 'hosts', key], 10_000);
  const f = pySplit(r.stdout.split('\n')[0] ?? '');
  return r.retcode === 0 && f.length > 1 ? f : undefined;
}

/** Python's `socket.getfqdn(gethostbyaddr(ip)[0])` through NSS. */
async function fqdnOf(ip: string): Promise<string | undefined> {
  const byAddr = await nssHosts(ip);
  if (!byAddr) return undefined;
  const host = byAddr[1]!;
  const addr = (await nssHosts(host))?.[0];
  const names = (addr && (await nssHosts(addr))?.slice(1)) || [host];
  return names.find((n) => n.includes('.')) ?? names[0] ?? host;
}

/** One line of Linux traceroute 2.x output as Salt reads it (fields split on two spaces). */
function traceLine(line: string): Record<string, unknown> {
  const comps = line.split('  ');
  const int = (s: string) => {
    const n = parsePyInt(s);
    if (n === undefined) throw new SALT_ERR_EXEC_VALUE(`invalid literal for int() with base 10: '${s}'`);
    return n;
  };
  const num = (s: string | undefined) => {
    const t = (s ?? '').trim().split(/\s+/)[0] ?? '';
    if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) {
      throw new SALT_ERR_EXEC_VALUE(`could not convert string to float: '${t}'`);
    }
    return float64(Number(t));
  };
  if (comps.length >= 2 && comps[1] === '* * *') return { count: int(comps[0]!), hostname: '*' };
  if (comps.length < 5) return {};
  const host = pySplit(comps[1]!);
  return {
    count: int(comps[0]!),
    hostname: host[0],
    ip: (host[1] ?? '').replace(/^[()]+|[()]+$/g, ''),
    ms1: num(comps[2]),
    ms2: num(comps[3]),
    ms3: num(comps[4]),
  };
}

/** Traceroute's version as Salt reads `traceroute --version` ([major, minor, patch], 0 when unknown). */
function tracerouteVersion(out: string): Array<number | string> {
  const m = /.*[Vv]ersion (\d+)\.([\w+]+)\.*(\w*)/.exec(out);
  if (!m) return [0, 0, 0];
  return [m[1]!, m[2]!, m[3]!].map((t) => (/^\d+$/.test(t) ? Number(t) : t));
}

async function traceroute(ctx: ExecContext, host: string): Promise<Array<Record<string, unknown>>> {
  const out = String(await ctx.call('cmd.run', [`traceroute ${sanitizeHost(host)}`]));
  const [major = 0, minor = 0, patch = 0] = tracerouteVersion(
    String(await ctx.call('cmd.run', ['traceroute --version'])),
  );
  const modern = (Number(major) >= 2 && Number(patch) >= 14) || (Number(major) >= 2 && Number(minor) > 0);
  const ret: Array<Record<string, unknown>> = [];
  for (const line of out.split(/\r\n|\r|\n/)) {
    if (!line.includes(' ') || line.startsWith('traceroute')) continue;
    if (/Darwin|FreeBSD/.test(String(minor))) continue; // BSD output is not Linux's
    let result: Record<string, unknown>;
    if (modern) result = traceLine(line);
    else {
      const c = pySplit(line);
      result =
        c.length >= 8
          ? {
              count: c[0],
              hostname: c[1],
              ip: c[2],
              ms1: c[4],
              ms2: c[6],
              ms3: c[8],
              ping1: c[3],
              ping2: c[5],
              ping3: c[7],
            }
          : {};
    }
    ret.push(result);
    if (!Object.keys(result).length) ctx.log.warn(`Cannot parse traceroute output line: ${line}`);
  }
  return ret;
}

/** Salt's `mac_str_to_bytes`: 12 hex digits, or 17 characters with the third as separator. */
export function macBytes(mac: string): Buffer {
  let s = mac;
  if (s.length === 17) s = s.split(s[2]!).join('');
  else if (s.length !== 12) throw new SALT_ERR_EXEC_VALUE('Invalid MAC address');
  const out: number[] = [];
  for (let i = 0; i < 12; i += 2) {
    const pair = s.slice(i, i + 2);
    if (!/^\s*[+-]?[0-9a-fA-F]+\s*$/.test(pair) || (/^[+-]/.test(pair.trim()) && pair.trim().length < 2)) {
      throw new SALT_ERR_EXEC_VALUE(`invalid literal for int() with base 16: '${pair}'`);
    }
    out.push(Number.parseInt(pair, 16));
  }
  return Buffer.from(out);
}

function sendWol(mac: string, bcast: string, port: number): Promise<true> {
  const dest = macBytes(mac);
  const packet = Buffer.concat([Buffer.alloc(6, 0xff), ...new Array<Buffer>(16).fill(dest)]);
  return new Promise((resolve, reject) => {
    const sock = createSocket('udp4');
    sock.on('error', (err) => {
      sock.close();
      reject(new SALT_ERR_EXEC_VALUE(`OSError: ${err.message}`));
    });
    sock.bind(0, () => {
      sock.setBroadcast(true);
      sock.send(packet, port, bcast, (err) => {
        sock.close();
        if (err) reject(new SALT_ERR_EXEC_VALUE(`OSError: ${err.message}`));
        else resolve(true);
      });
    });
  });
}

/** Salt's `_get_bufsize_linux`: `ethtool -g` as `<setting>-max`/`<setting>` keys, or the error text. */
async function getBufsize(ctx: ExecContext, iface: string): Promise<Record<string, unknown>> {
  const ret: Record<string, unknown> = { result: false };
  let out = String(await ctx.call('cmd.run', [`${ETHTOOL} -g ${iface}`]));
  let suffix = 'max-';
  for (const line of out.split(/\r\n|\r|\n/)) {
    const m = /^(.+):\s+(\d+)$/.exec(line);
    if (m) {
      ret[`${m[1]!.toLowerCase().replace(/ /g, '-')}${suffix}`] = Number(m[2]);
      ret.result = true;
    } else if (line.endsWith('maximums:')) suffix = '-max';
    else if (line.endsWith('settings:')) suffix = '';
  }
  if (!ret.result) {
    const parts = pySplit(out);
    if (parts[0]?.endsWith('sh:')) out = parts.slice(1).join(' ');
    ret.comment = out;
  }
  return ret;
}

const BUF_KEYS = ['rx', 'tx', 'rx-mini', 'rx-jumbo'];

async function modBufsize(
  ctx: ExecContext,
  iface: string,
  args: unknown[],
  kwargs: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const ret = { result: false, comment: 'Requires rx=<val> tx==<val> rx-mini=<val> and/or rx-jumbo=<val>' };
  if (!Object.keys(kwargs).length) return ret;
  if (args.length) return { ...ret, comment: `Unknown arguments: ${args.map(String).join(' ')}` };
  let eargs = '';
  for (const k of BUF_KEYS) {
    const v = kwargs[k];
    if (v !== undefined && v !== null) eargs += ` ${k} ${String(v)}`;
  }
  if (!eargs) return ret;
  const out = String(await ctx.call('cmd.run', [`${ETHTOOL} -G ${iface}${eargs}`]));
  return out ? { result: false, comment: out } : { result: true, comment: eargs.trim() };
}

const text = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

export const moreNetworkFunctions = {
  reverse_ip: defineFunction({
    args: (z) => z.object({ ip_addr: z.unknown() }),
    doc: `Returns the reversed IP address (its in-addr.arpa or ip6.arpa name).

CLI Example:

    salt '*' network.reverse_ip 172.17.0.4`,
    run: (_ctx, a) => reversePointer(a.ip_addr),
  }),
  iphexval: defineFunction({
    args: (z) => z.object({ ip: z.unknown() }),
    doc: `Retrieve the hexadecimal representation of an IP address.

CLI Example:

    salt '*' network.iphexval 10.0.0.1`,
    run: (_ctx, a) => ipHexVal(a.ip),
  }),
  ifacestartswith: defineFunction({
    args: (z) => z.object({ cidr: z.unknown() }),
    doc: `Retrieve the interface name from a specific CIDR (the interfaces whose IPv4 address
starts with the given text).

CLI Example:

    salt '*' network.ifacestartswith 10.0`,
    run: async (_ctx, a) => {
      const pattern = typeof a.cidr === 'string' ? a.cidr : JSON.stringify(a.cidr);
      const names: string[] = [];
      for (const [name, info] of Object.entries(await interfaces())) {
        for (const inet of info.inet ?? []) {
          if (String(inet.address ?? '').slice(0, pattern.length) === pattern) {
            names.push(inet.label !== undefined ? String(inet.label) : name);
          }
        }
      }
      return names;
    },
  }),
  ip_networks: defineFunction({
    args: (z) =>
      z.object({
        interface: z.unknown().optional(),
        include_loopback: pyFlag(z, false),
        verbose: pyFlag(z, false),
      }),
    doc: `Returns a list of IPv4 networks to which the minion belongs.

interface: restrict results to the specified interface(s): a name, a list, or globs.

CLI Example:

    salt '*' network.ip_networks
    salt '*' network.ip_networks interface=docker0,enp*`,
    run: async (_ctx, a) =>
      ipNetworks(filterIfaces(await interfaces(), a.interface), 'inet', a.include_loopback, a.verbose),
  }),
  ip_networks6: defineFunction({
    args: (z) =>
      z.object({
        interface: z.unknown().optional(),
        include_loopback: pyFlag(z, false),
        verbose: pyFlag(z, false),
      }),
    doc: `Returns a list of IPv6 networks to which the minion belongs.

interface: restrict results to the specified interface(s): a name, a list, or globs.

CLI Example:

    salt '*' network.ip_networks6
    salt '*' network.ip_networks6 interface=eth*`,
    run: async (_ctx, a) =>
      ipNetworks(filterIfaces(await interfaces(), a.interface), 'inet6', a.include_loopback, a.verbose),
  }),
  fqdns: defineFunction({
    doc: `Return all known FQDNs for the system by enumerating all interfaces and then trying to
reverse resolve them (excluding the loopback addresses).

CLI Example:

    salt '*' network.fqdns`,
    run: async () => {
      const ifaces = await interfaces();
      const addrs = [...ipAddrs(ifaces, 'inet', false), ...ipAddrs(ifaces, 'inet6', false)];
      const found = await Promise.all(addrs.map(fqdnOf));
      const names = [...new Set(found.filter((n): n is string => n !== undefined))];
      return { fqdns: names.sort() };
    },
  }),
  get_bufsize: defineFunction({
    args: (z) => z.object({ iface: text(z) }),
    doc: `Return network buffer sizes as a dict (currently linux only).

CLI Example:

    salt '*' network.get_bufsize eth0`,
    run: (ctx, a) => (existsSync(ETHTOOL) ? getBufsize(ctx, a.iface) : {}),
  }),
  mod_bufsize: defineFunction({
    args: (z) => z.object({ iface: text(z) }),
    varargs: true,
    varkw: true,
    doc: `Modify network interface buffers (currently linux only).

CLI Example:

    salt '*' network.mod_bufsize eth0 tx=<val> rx=<val> rx-mini=<val> rx-jumbo=<val>`,
    run: async (ctx, a, extra): Promise<Record<string, unknown> | false> =>
      existsSync(ETHTOOL) ? modBufsize(ctx, a.iface, extra.args, extra.kwargs) : false,
  }),
  traceroute: defineFunction({
    args: (z) => z.object({ host: text(z) }),
    doc: `Performs a traceroute to a 3rd party host.

CLI Example:

    salt '*' network.traceroute archlinux.org`,
    run: (ctx, a) => traceroute(ctx, a.host),
  }),
  wol: defineFunction({
    args: (z) =>
      z.object({
        mac: z.union([z.string(), z.number()]).transform(String),
        bcast: z.string().default('255.255.255.255'),
        destport: z.union([z.number(), z.string()]).default(9),
      }),
    doc: `Send Wake On Lan packet to a host.

CLI Example:

    salt '*' network.wol 08-00-27-13-69-77
    salt '*' network.wol 080027136977 255.255.255.255 7
    salt '*' network.wol 08:00:27:13:69:77 255.255.255.255 7`,
    run: (_ctx, a) => {
      const port = Number(a.destport);
      if (!Number.isInteger(port)) {
        throw new SALT_ERR_INVOCATION(`invalid literal for int() with base 10: '${String(a.destport)}'`);
      }
      return sendWol(a.mac, a.bcast ?? '255.255.255.255', port);
    },
  }),
};
