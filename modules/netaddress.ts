/**
 * Salt's `netaddress` execution module (`salt/modules/netaddress.py`): the addresses, netmask
 * and broadcast address of a CIDR network, computed as python-netaddr 0.8 does (see
 * `_netaddr-network.ts`). A bad network is netaddr's unhandled `AddrFormatError`, as in Salt.
 */
import { defineFunction, defineModule, SALT_ERR_EXEC_COMMAND } from '../kernel/index.js';
import {
  firstOf,
  format6,
  formatIn,
  type IpNetwork,
  lastOf,
  netmaskOf,
  parseNetwork,
} from './_netaddr-network.js';

/**
 * More addresses than a /8 holds would be a list of gigabytes (Salt's process runs out of
 * memory); tsalt refuses them instead.
 */
const MAX_ADDRESSES = 1n << 24n;

function eachAddress(net: IpNetwork, show: (value: bigint) => string): string[] {
  const first = firstOf(net);
  const last = lastOf(net);
  if (last - first + 1n > MAX_ADDRESSES) {
    throw new SALT_ERR_EXEC_COMMAND(
      `The network has ${last - first + 1n} addresses; at most ${MAX_ADDRESSES} can be listed`,
    );
  }
  const out: string[] = [];
  for (let v = first; v <= last; v++) out.push(show(v));
  return out;
}

const cidrArg = (z: typeof import('zod').z) => z.object({ cidr: z.unknown() });
const cli = (example: string) => `\n\nCLI Example:\n\n    salt myminion netaddress.${example}`;

export default defineModule({
  name: 'netaddress',
  doc: 'Information about network addresses: the addresses, netmask and broadcast address of a CIDR.',
  functions: {
    list_cidr_ips: defineFunction({
      args: cidrArg,
      doc: `Return the list of IP addresses in a CIDR network.${cli('list_cidr_ips 192.168.0.0/20')}`,
      run: (_ctx, a) => {
        const net = parseNetwork(a.cidr);
        return eachAddress(net, (v) => formatIn(net, v));
      },
    }),
    list_cidr_ips_ipv6: defineFunction({
      args: cidrArg,
      doc: `Return the IP addresses of a CIDR network as IPv6 addresses (IPv4 ones as ::ffff:a.b.c.d).${cli(
        'list_cidr_ips_ipv6 192.168.0.0/20',
      )}`,
      run: (_ctx, a) => {
        const net = parseNetwork(a.cidr);
        return eachAddress(net, (v) => format6(net.width === 32 ? 0xffff00000000n + v : v));
      },
    }),
    cidr_netmask: defineFunction({
      args: cidrArg,
      doc: `Return the netmask of a CIDR network.${cli('cidr_netmask 192.168.0.0/20')}`,
      inline: true,
      run: (_ctx, a) => {
        const net = parseNetwork(a.cidr);
        return formatIn(net, netmaskOf(net));
      },
    }),
    cidr_broadcast: defineFunction({
      args: cidrArg,
      doc: `Return the broadcast address of a CIDR network ('None' for an IPv4 /31 or /32).${cli(
        'cidr_broadcast 192.168.0.0/20',
      )}`,
      inline: true,
      run: (_ctx, a) => {
        const net = parseNetwork(a.cidr);
        return net.width === 32 && net.prefix >= 31 ? 'None' : formatIn(net, lastOf(net));
      },
    }),
  },
});
