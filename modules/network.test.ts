import { describe, expect, it } from 'vitest';
import { fakeCtx, invoke } from './_fake-ctx.js';
import { parseIpOutput } from './_network-ifaces.js';
import network from './network.js';

const call = async (fun: string, arg: unknown[] = []) => (await invoke(network, fun, arg, fakeCtx())).value;

/** `ip link show` + `ip addr show` of a machine, and what Salt 3006 parsed from it. */
const IP_OUT = `1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000
    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP mode DEFAULT group default qlen 1000
    link/ether 02:fc:00:00:00:01 brd ff:ff:ff:ff:ff:ff
1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000
    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00
    inet 127.0.0.1/8 scope host lo
       valid_lft forever preferred_lft forever
    inet6 ::1/128 scope host
       valid_lft forever preferred_lft forever
2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000
    link/ether 02:fc:00:00:00:01 brd ff:ff:ff:ff:ff:ff
    inet 192.0.2.2/24 brd 192.0.2.255 scope global eth0
       valid_lft forever preferred_lft forever
    inet 192.0.2.9/24 scope global secondary eth0
       valid_lft forever preferred_lft forever
    inet6 fd00::2/64 scope global
       valid_lft forever preferred_lft forever
`;

describe('network', () => {
  it('parses ip output as Salt does', () => {
    expect(parseIpOutput(IP_OUT)).toEqual({
      lo: {
        up: true,
        hwaddr: '00:00:00:00:00:00',
        inet: [{ address: '127.0.0.1', netmask: '255.0.0.0', broadcast: null, label: 'lo' }],
        inet6: [{ address: '::1', prefixlen: '128', scope: 'host' }],
      },
      eth0: {
        up: true,
        hwaddr: '02:fc:00:00:00:01',
        inet: [{ address: '192.0.2.2', netmask: '255.255.255.0', broadcast: '192.0.2.255', label: 'eth0' }],
        secondary: [
          { type: 'inet', address: '192.0.2.9', netmask: '255.255.255.0', broadcast: null, label: 'eth0' },
        ],
        inet6: [{ address: 'fd00::2', prefixlen: '64', scope: 'global' }],
      },
    });
  });

  it('CIDR arithmetic (Salt 3006 answers)', async () => {
    expect(await call('calc_net', ['172.17.0.5', '255.255.255.240'])).toBe('172.17.0.0/28');
    expect(await call('calc_net', ['2a02:f6e:a000:80:84d8:8332:7866:4e07/64'])).toBe('2a02:f6e:a000:80::/64');
    expect(await call('convert_cidr', ['172.31.0.0/16'])).toEqual({
      network: '172.31.0.0',
      netmask: '255.255.0.0',
      broadcast: '172.31.255.255',
    });
    expect(await call('ip_in_subnet', ['172.17.0.4', '172.16.0.0/12'])).toBe(true);
    expect(await call('ip_in_subnet', ['10.1.1.1', '172.16.0.0/12'])).toBe(false);
    expect(await call('in_subnet', ['192.0.2.1/24'])).toBe(false);
    expect(await call('is_private', ['10.0.0.3'])).toBe(true);
    expect(await call('is_private', ['8.8.8.8'])).toBe(false);
    expect(await call('is_loopback', ['127.0.0.1'])).toBe(true);
  });

  it('reads this machine: interfaces, loopback addresses, errors for a missing interface', async () => {
    const ifaces = (await call('interfaces')) as Record<string, Record<string, unknown>>;
    expect(ifaces.lo?.hwaddr).toBe('00:00:00:00:00:00');
    expect(await call('ip_addrs', [{ __kwarg__: true, interface: 'lo', include_loopback: true }])).toEqual([
      '127.0.0.1',
    ]);
    expect(await call('interface_ip', ['lo'])).toBe('127.0.0.1');
    expect(String(await call('interface', ['nope0']))).toMatch(
      /^Interface "nope0" not in available interfaces: "lo"/,
    );
    expect(typeof (await call('get_hostname'))).toBe('string');
    expect(await call('connect', ['127.0.0.1'])).toEqual({
      result: false,
      comment: 'Required argument, port, is missing.',
    });
    expect(Array.isArray(await call('routes'))).toBe(true);
  });
});
