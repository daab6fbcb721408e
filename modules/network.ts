/**
 * Salt's `network` execution module (`salt/modules/network.py`) on Linux: interfaces and
 * addresses (`ip link`/`ip addr`), subnets and CIDR arithmetic, routes and connections
 * (`netstat`, else `ip route`/`ss`; /proc/net/tcp), ping, TCP/UDP connect, ARP, host names.
 * Programs run as argv; host names are checked before they reach one.
 */
import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect as tcpConnect } from 'node:net';
import { hostname } from 'node:os';
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND, SALT_ERR_EXEC_VALUE } from '../kernel/index.js';
import { pyFlag } from './_coerce.js';
import { moreNetworkFunctions, sanitizeHost } from './_network-fns-more.js';
import { getFqdn, modHostname } from './_network-hostname.js';
import { activeTcp, filterIfaces, ifaceInfo, interfaces, ipAddrs, subnetsOf } from './_network-ifaces.js';
import {
  broadcastOf,
  formatAddr,
  formatNet,
  inNet,
  isLoopback,
  isPrivate,
  netmaskOf,
  parseAddr,
  parseNet,
} from './_network-ip.js';
import { pySplit, runProgram } from './_status-proc.js';
import { which } from './_which.js';

function addrOrThrow(text: string) {
  const a = parseAddr(text);
  if (!a) throw new SALT_ERR_EXEC_VALUE(`'${text}' does not appear to be an IPv4 or IPv6 address`);
  return a;
}

function netOrThrow(text: string, mask?: string | null) {
  try {
    return parseNet(text, mask);
  } catch (err) {
    throw new SALT_ERR_EXEC_VALUE((err as Error).message);
  }
}

async function runMerged(argv: string[]): Promise<string> {
  const r = await runProgram(argv);
  return [r.stdout.replace(/\n$/, ''), r.stderr.replace(/\n$/, '')].filter((x) => x).join('\n');
}

/** Salt's `in_subnet(cidr, addrs)`. */
async function inSubnet(cidr: string, addrs?: string[]): Promise<boolean> {
  let net: ReturnType<typeof parseNet>;
  try {
    net = parseNet(cidr);
    // Python's ip_network is strict here: host bits set make the CIDR invalid
    if (parseAddr(cidr.split('/')[0]!)?.value !== net.net) return false;
  } catch {
    return false;
  }
  let list = addrs;
  if (!list) {
    const ifaces = await interfaces();
    list = [...ipAddrs(ifaces, 'inet', false), ...ipAddrs(ifaces, 'inet6', false)];
  }
  return list.some((a) => {
    const ip = parseAddr(a);
    return ip ? inNet(ip, net) : false;
  });
}

async function routes(family?: string | null): Promise<Array<Record<string, string>>> {
  if (family !== undefined && family !== null && family !== 'inet' && family !== 'inet6') {
    throw new SALT_ERR_EXEC_COMMAND(`Invalid address family ${family}`);
  }
  const out: Array<Record<string, string>> = [];
  if (which('netstat')) {
    for (const line of (await runMerged(['netstat', '-A', 'inet', '-rn'])).split('\n').slice(2)) {
      const c = pySplit(line);
      if (c.length < 8) continue;
      out.push({
        addr_family: 'inet',
        destination: c[0]!,
        gateway: c[1]!,
        netmask: c[2]!,
        flags: c[3]!,
        interface: c[7]!,
      });
    }
    for (const line of (await runMerged(['netstat', '-A', 'inet6', '-rn'])).split('\n').slice(2)) {
      const c = pySplit(line);
      if (c.length !== 6 && c.length !== 7) continue;
      out.push({
        addr_family: 'inet6',
        destination: c[0]!,
        gateway: c[1]!,
        netmask: '',
        flags: c[2]!,
        interface: c[c.length - 1]!,
      });
    }
  } else {
    for (const line of (await runMerged(['ip', '-4', 'route', 'show', 'table', 'main'])).split('\n')) {
      const c = pySplit(line);
      if (!c.length || c[0] === 'unreachable') continue;
      if (c[0] === 'default') {
        out.push({
          addr_family: 'inet',
          destination: '0.0.0.0',
          gateway: c[2] ?? '',
          netmask: '0.0.0.0',
          flags: 'UG',
          interface: c[3] === 'dev' ? (c[4] ?? '') : '',
        });
      } else {
        const net = netOrThrow(c[0]!);
        out.push({
          addr_family: 'inet',
          destination: formatAddr({ version: net.version, value: net.net }),
          gateway: '0.0.0.0',
          netmask: netmaskOf(net),
          flags: 'U',
          interface: c[1] === 'dev' ? (c[2] ?? '') : '',
        });
      }
    }
    const skip = [
      'unicast',
      'broadcast',
      'throw',
      'unreachable',
      'prohibit',
      'blackhole',
      'nat',
      'anycast',
      'multicast',
    ];
    for (const line of (await runMerged(['ip', '-6', 'route', 'show', 'table', 'all'])).split('\n')) {
      const c = pySplit(line);
      if (!c.length || skip.includes(c[0]!)) continue;
      if (c[0] === 'default') {
        out.push({
          addr_family: 'inet6',
          destination: '::/0',
          gateway: c[2] ?? '',
          netmask: '',
          flags: 'UG',
          interface: c[3] === 'dev' ? (c[4] ?? '') : '',
        });
      } else if (c[0] === 'local') {
        out.push({
          addr_family: 'inet6',
          destination: `${c[1]}/128`,
          gateway: '::',
          netmask: '',
          flags: 'U',
          interface: c[2] === 'dev' ? (c[3] ?? '') : '',
        });
      } else {
        out.push({
          addr_family: 'inet6',
          destination: c[0]!,
          gateway: '::',
          netmask: '',
          flags: 'U',
          interface: c[1] === 'dev' ? (c[2] ?? '') : '',
        });
      }
    }
  }
  return family ? out.filter((r) => r.addr_family === family) : out;
}

async function connectTo(host: string, port: number, proto: string, timeoutS: number, family: number) {
  const ret = { result: null as boolean | null, comment: '' };
  let address: string;
  try {
    // an address of the other family does not resolve, as with Python's getaddrinfo
    if (parseAddr(host) && family && (host.includes(':') ? 6 : 4) !== family) throw new Error(host);
    address = parseAddr(host) ? host : (await lookup(sanitizeHost(host), { family })).address;
  } catch {
    return { result: false, comment: `Unable to resolve host ${host} on ${proto} port ${port}` };
  }
  const ok = await new Promise<boolean>((resolve) => {
    if (proto === 'udp') {
      const sock = createSocket(address.includes(':') ? 'udp6' : 'udp4');
      const timer = setTimeout(() => {
        sock.close();
        resolve(false);
      }, timeoutS * 1000);
      sock.on('message', () => {
        clearTimeout(timer);
        sock.close();
        resolve(true);
      });
      sock.on('error', () => {
        clearTimeout(timer);
        sock.close();
        resolve(false);
      });
      sock.send(Buffer.from(String(Date.now())), port, address);
      return;
    }
    const s = tcpConnect({ host: address, port, timeout: timeoutS * 1000 });
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
    s.on('error', () => resolve(false));
  });
  ret.result = ok;
  ret.comment = ok
    ? `Successfully connected to ${host} (${address}) on ${proto} port ${port}`
    : `Unable to connect to ${host} (${address}) on ${proto} port ${port}`;
  return ret;
}

const text = (z: typeof import('zod').z) => z.union([z.string(), z.number()]).transform(String);

const ipAddrsFn = (proto: 'inet' | 'inet6') =>
  defineFunction({
    args: (z) =>
      z.object({
        interface: z.unknown().optional(),
        include_loopback: pyFlag(z, false),
        cidr: z.string().nullable().optional(),
        ...(proto === 'inet' ? { type: z.string().nullable().optional() } : {}),
      }),
    doc: `Returns a list of ${proto === 'inet' ? 'IPv4' : 'IPv6'} addresses assigned to the host.

interface: only the IP addresses assigned to this interface (glob patterns, comma-separated).
include_loopback: include loopback addresses (False).
cidr: only the addresses within that subnet.${proto === 'inet' ? "\ntype: only 'public' or 'private' addresses." : ''}

CLI Example:

    salt '*' network.ip_addrs${proto === 'inet' ? '' : '6'}`,
    run: async (_ctx, a) => {
      const addrs = ipAddrs(filterIfaces(await interfaces(), a.interface), proto, a.include_loopback);
      if (a.cidr) {
        const out: string[] = [];
        for (const i of addrs) if (await inSubnet(a.cidr, [i])) out.push(i);
        return out;
      }
      const type = (a as { type?: string | null }).type;
      if (type === 'public') return addrs.filter((i) => !isPrivate(addrOrThrow(i)));
      if (type === 'private') return addrs.filter((i) => isPrivate(addrOrThrow(i)));
      return addrs;
    },
  });

const hwAddr = defineFunction({
  args: (z) => z.object({ iface: z.string() }),
  doc: `Return the hardware address (a.k.a. MAC address) for a given interface.

CLI Example:

    salt '*' network.hw_addr eth0`,
  run: async (ctx, a) => {
    const { info, error } = await ifaceInfo(a.iface);
    if (error) {
      ctx.log.error(error);
      return error;
    }
    return info?.[a.iface]?.hwaddr ?? '';
  },
});

export default defineModule({
  name: 'network',
  doc: 'Module for gathering and managing network information.',
  virtual: () =>
    process.platform === 'win32'
      ? {
          ok: false,
          reason: 'The network execution module cannot be loaded on Windows: use win_network instead.',
        }
      : true,
  functions: {
    ping: defineFunction({
      args: (z) =>
        z.object({ host: text(z), timeout: z.unknown().default(false), return_boolean: pyFlag(z, false) }),
      doc: `Performs an ICMP ping to a host.

timeout: a timeout in seconds for the ping (passed to ping -W).
return_boolean: return True or False instead of ping's output.

CLI Example:

    salt '*' network.ping archlinux.org
    salt '*' network.ping archlinux.org timeout=3 return_boolean=True`,
      run: async (_ctx, a) => {
        const argv = ['ping'];
        if (a.timeout) argv.push('-W', String(a.timeout));
        argv.push('-c', '4', sanitizeHost(a.host));
        if (!which('ping')) {
          throw new SALT_ERR_EXEC_COMMAND(`Unable to run command '${argv.join(' ')}': command not found`);
        }
        if (a.return_boolean) return (await runProgram(argv, 120_000)).retcode === 0;
        return runMerged(argv);
      },
    }),
    netstat: defineFunction({
      doc: `Return information on open ports and states.

CLI Example:

    salt '*' network.netstat`,
      run: async () => {
        const ret: Array<Record<string, unknown>> = [];
        if (which('netstat')) {
          for (const line of (await runMerged(['netstat', '-tulpnea'])).split('\n')) {
            const c = pySplit(line);
            if (line.startsWith('tcp')) {
              ret.push({
                proto: c[0],
                'recv-q': c[1],
                'send-q': c[2],
                'local-address': c[3],
                'remote-address': c[4],
                state: c[5],
                user: c[6],
                inode: c[7],
                program: c[8],
              });
            }
            if (line.startsWith('udp')) {
              ret.push({
                proto: c[0],
                'recv-q': c[1],
                'send-q': c[2],
                'local-address': c[3],
                'remote-address': c[4],
                user: c[5],
                inode: c[6],
                program: c[7],
              });
            }
          }
          return ret;
        }
        for (const line of (await runMerged(['ss', '-tulpnea'])).split('\n')) {
          const c = pySplit(line);
          let user: string | number = 0;
          let inode: string | number = 0;
          let program = '';
          if (!line.startsWith('tcp') && !line.startsWith('udp')) continue;
          for (let i = 6; i < c.length - 1; i++) {
            const f = c[i]!.split(':');
            if (f[0] === 'users') program = (f[1] ?? '').split(',')[0]!.split('"')[1] ?? '';
            if (f[0] === 'uid') user = f[1] ?? '';
            if (f[0] === 'ino') inode = f[1] ?? '';
          }
          const row: Record<string, unknown> = {
            proto: c[0],
            'recv-q': c[2],
            'send-q': c[3],
            'local-address': c[4],
            'remote-address': c[5],
          };
          if (line.startsWith('tcp')) row.state = c[1] === 'ESTAB' ? 'ESTABLISHED' : c[1];
          ret.push({ ...row, user, inode, program });
        }
        return ret;
      },
    }),
    active_tcp: defineFunction({
      doc: `Return a dict containing information on all of the running TCP connections
(currently linux and solaris only).

CLI Example:

    salt '*' network.active_tcp`,
      run: () => activeTcp(),
    }),
    dig: defineFunction({
      args: (z) => z.object({ host: text(z) }),
      doc: `Performs a DNS lookup with dig.

CLI Example:

    salt '*' network.dig archlinux.org`,
      run: async (_ctx, a) => (await runMerged(['dig', sanitizeHost(a.host)])).replace(/\s+$/, ''), // cmd.run's rstrip
    }),
    arp: defineFunction({
      doc: `Return the arp table from the minion.

CLI Example:

    salt '*' network.arp`,
      run: async () => {
        if (!which('arp')) throw new SALT_ERR_EXEC_COMMAND('The arp binary was not found');
        const ret: Record<string, string> = {};
        for (const line of (await runMerged(['arp', '-an'])).split('\n')) {
          const c = pySplit(line);
          if (c.length < 4) continue;
          ret[c[3]!] = c[1]!.replace(/^\(+|\)+$/g, '');
        }
        return ret;
      },
    }),
    interfaces: defineFunction({
      doc: `Return a dictionary of information about all the interfaces on the minion.

CLI Example:

    salt '*' network.interfaces`,
      run: () => interfaces(),
    }),
    hw_addr: hwAddr,
    hwaddr: hwAddr,
    interface: defineFunction({
      args: (z) => z.object({ iface: z.string() }),
      doc: `Return the inet address for a given interface.

CLI Example:

    salt '*' network.interface eth0`,
      run: async (ctx, a) => {
        const { info, error } = await ifaceInfo(a.iface);
        if (error) {
          ctx.log.error(error);
          return error;
        }
        return info?.[a.iface]?.inet ?? '';
      },
    }),
    interface_ip: defineFunction({
      args: (z) => z.object({ iface: z.string() }),
      doc: `Return the inet address for a given interface.

CLI Example:

    salt '*' network.interface_ip eth0`,
      run: async (ctx, a) => {
        const { info, error } = await ifaceInfo(a.iface);
        if (error) {
          ctx.log.error(error);
          return error;
        }
        const inet = info?.[a.iface]?.inet;
        return inet?.length ? (inet[0]!.address ?? '') : '';
      },
    }),
    subnets: defineFunction({
      args: (z) => z.object({ interfaces: z.unknown().optional() }),
      doc: `Returns a list of IPv4 subnets to which the host belongs.

CLI Example:

    salt '*' network.subnets
    salt '*' network.subnets interfaces=eth1`,
      run: async (_ctx, a) => {
        const all = await interfaces();
        let chosen = all;
        if (Array.isArray(a.interfaces)) {
          chosen = Object.fromEntries(
            Object.entries(all).filter(([k]) => (a.interfaces as unknown[]).includes(k)),
          );
        } else if (a.interfaces !== undefined && a.interfaces !== null) {
          chosen = { [String(a.interfaces)]: all[String(a.interfaces)] ?? {} };
        }
        return subnetsOf(chosen, 'inet');
      },
    }),
    subnets6: defineFunction({
      doc: `Returns a list of IPv6 subnets to which the host belongs.

CLI Example:

    salt '*' network.subnets6`,
      run: async () => subnetsOf(await interfaces(), 'inet6'),
    }),
    in_subnet: defineFunction({
      args: (z) => z.object({ cidr: text(z) }),
      doc: `Returns True if host is within specified subnet, otherwise False.

CLI Example:

    salt '*' network.in_subnet 10.0.0.0/16`,
      run: (_ctx, a) => inSubnet(a.cidr),
    }),
    ip_in_subnet: defineFunction({
      args: (z) => z.object({ ip_addr: text(z), cidr: text(z) }),
      doc: `Returns True if given IP is within specified subnet, otherwise False.

CLI Example:

    salt '*' network.ip_in_subnet 172.17.0.4 172.16.0.0/12`,
      run: (_ctx, a) => {
        addrOrThrow(a.ip_addr);
        return inSubnet(a.cidr, [a.ip_addr]);
      },
    }),
    convert_cidr: defineFunction({
      args: (z) => z.object({ cidr: text(z) }),
      doc: `Returns the network address, subnet mask and broadcast address of a cidr address in
a dict.

CLI Example:

    salt '*' network.convert_cidr 172.31.0.0/16`,
      run: (_ctx, a) => {
        const net = netOrThrow(a.cidr);
        return {
          network: formatAddr({ version: net.version, value: net.net }),
          netmask: netmaskOf(net),
          broadcast: broadcastOf(net),
        };
      },
    }),
    calc_net: defineFunction({
      args: (z) => z.object({ ip_addr: text(z), netmask: text(z).nullable().optional() }),
      doc: `Returns the CIDR of a subnet based on an IP address (CIDR notation supported) and
optional netmask.

CLI Example:

    salt '*' network.calc_net 172.17.0.5 255.255.255.240
    salt '*' network.calc_net 2a02:f6e:a000:80:84d8:8332:7866:4e07/64`,
      run: (_ctx, a) => formatNet(netOrThrow(a.ip_addr, a.netmask)),
    }),
    ip_addrs: ipAddrsFn('inet'),
    ipaddrs: ipAddrsFn('inet'),
    ip_addrs6: ipAddrsFn('inet6'),
    ipaddrs6: ipAddrsFn('inet6'),
    get_hostname: defineFunction({
      doc: `Get hostname.

CLI Example:

    salt '*' network.get_hostname`,
      run: () => hostname(),
    }),
    mod_hostname: defineFunction({
      args: (z) => z.object({ hostname: z.union([z.string(), z.number()]).transform(String).nullable() }),
      doc: `Modify hostname

Sets it with hostnamectl (or the hostname program), replaces the old name in /etc/hosts and
writes /etc/hostname (Debian) or /etc/sysconfig/network (RedHat). False when the program
refuses the name.

CLI Example:

    salt '*' network.mod_hostname master.saltstack.com`,
      run: (ctx, a) => modHostname(ctx, a.hostname),
    }),
    get_fqdn: defineFunction({
      doc: `Get fully qualified domain name.

CLI Example:

    salt '*' network.get_fqdn`,
      run: () => getFqdn(),
    }),
    connect: defineFunction({
      varkw: true,
      args: (z) => z.object({ host: text(z).nullable(), port: z.unknown().optional() }),
      doc: `Test connectivity to a host using a particular port from the minion.

proto: tcp (default) or udp. timeout: seconds (5). family: ipv4 or ipv6.

CLI Example:

    salt '*' network.connect archlinux.org 80
    salt '*' network.connect archlinux.org 80 timeout=3 family=ipv4
    salt '*' network.connect google-public-dns-a.google.com port=53 proto=udp timeout=3`,
      run: (_ctx, a, extra) => {
        if (!a.host) return { result: false, comment: 'Required argument, host, is missing.' };
        if (!a.port) return { result: false, comment: 'Required argument, port, is missing.' };
        const kw = extra.kwargs;
        const proto = kw.proto === 'udp' ? 'udp' : 'tcp';
        const family = kw.family === 'ipv4' ? 4 : kw.family === 'ipv6' ? 6 : 0;
        return connectTo(a.host, Number(a.port), proto, Number(kw.timeout ?? 5), family);
      },
    }),
    is_private: defineFunction({
      args: (z) => z.object({ ip_addr: text(z) }),
      doc: `Check if the given IP address is a private address.

CLI Example:

    salt '*' network.is_private 10.0.0.3`,
      run: (_ctx, a) => isPrivate(addrOrThrow(a.ip_addr)),
    }),
    is_loopback: defineFunction({
      args: (z) => z.object({ ip_addr: text(z) }),
      doc: `Check if the given IP address is a loopback address.

CLI Example:

    salt '*' network.is_loopback 127.0.0.1`,
      run: (_ctx, a) => isLoopback(addrOrThrow(a.ip_addr)),
    }),
    routes: defineFunction({
      args: (z) => z.object({ family: z.string().nullable().optional() }),
      doc: `Return currently configured routes from routing table.

family: 'inet' (IPv4) or 'inet6' (IPv6); all when not given.

CLI Example:

    salt '*' network.routes`,
      run: (_ctx, a) => routes(a.family),
    }),
    default_route: defineFunction({
      args: (z) => z.object({ family: z.string().nullable().optional() }),
      doc: `Return default route(s) from routing table.

family: 'inet' (IPv4) or 'inet6' (IPv6); both when not given.

CLI Example:

    salt '*' network.default_route`,
      run: async (_ctx, a) => {
        const all = await routes(a.family);
        const dflt: Record<string, string[]> = { inet: ['0.0.0.0', 'default'], inet6: ['::/0', 'default'] };
        return all.filter((r) =>
          a.family
            ? dflt[a.family]!.includes(r.destination!)
            : dflt.inet!.includes(r.destination!) || dflt.inet6!.includes(r.destination!),
        );
      },
    }),
    get_route: defineFunction({
      args: (z) => z.object({ ip: text(z) }),
      doc: `Return routing information for given destination ip.

CLI Example:

    salt '*' network.get_route 10.10.10.10`,
      run: async (_ctx, a) => {
        const out = await runMerged(['ip', 'route', 'get', a.ip]);
        const m =
          /(via\s+(?<gateway>[\w.:]+))?\s+dev\s+(?<interface>[\w.:-]+)\s+.*src\s+(?<source>[\w.:]+)/.exec(
            out.split('\n')[0] ?? '',
          );
        if (!m?.groups) throw new SALT_ERR_EXEC_COMMAND("'NoneType' object has no attribute 'group'");
        return {
          destination: a.ip,
          gateway: m.groups.gateway ?? null,
          interface: m.groups.interface,
          source: m.groups.source,
        };
      },
    }),
    ...moreNetworkFunctions,
  },
});
