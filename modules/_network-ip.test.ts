import { describe, expect, it } from 'vitest';
import {
  formatNet,
  inNetwork,
  ipProperty,
  ipText,
  networkHosts,
  networkOf,
  networkSize,
  parseIp,
  parseNet,
} from './_network-ip.js';

// Expected values printed by Python 3.11's ipaddress (ip_address, else ip_interface; ip_network
// with strict=False; .hosts(); the is_* properties) for each input.
type Row = [input: string, text: string, net: string, size: number, hosts: string[] | null, props: string];
const ROWS: Row[] = [
  ['10.0.0.1', '10.0.0.1', '10.0.0.1/32', 1, ['10.0.0.1'], 'private'],
  ['10.1.2.3/8', '10.1.2.3/8', '10.0.0.0/8', 16777216, null, 'private'],
  ['192.168.1.10/30', '192.168.1.10/30', '192.168.1.8/30', 4, ['192.168.1.9', '192.168.1.10'], 'private'],
  ['::1', '::1', '::1/128', 1, ['::1'], 'private loopback reserved'],
  ['fe80::1/64', 'fe80::1/64', 'fe80::/64', 2 ** 64, null, 'private link_local'],
  ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', '2001:db8::1:0:0:1/128', 1, ['2001:db8::1:0:0:1'], 'private'],
  ['::ffff:1.2.3.4', '::ffff:102:304', '::ffff:102:304/128', 1, ['::ffff:102:304'], 'reserved'],
  ['::ffff:10.0.0.1', '::ffff:a00:1', '::ffff:a00:1/128', 1, ['::ffff:a00:1'], 'private reserved'],
  ['4000::1', '4000::1', '4000::1/128', 1, ['4000::1'], 'reserved'],
  ['100.64.0.1', '100.64.0.1', '100.64.0.1/32', 1, ['100.64.0.1'], ''],
  ['224.0.0.1', '224.0.0.1', '224.0.0.1/32', 1, ['224.0.0.1'], 'multicast'],
  ['8.8.8.8', '8.8.8.8', '8.8.8.8/32', 1, ['8.8.8.8'], ''],
  ['fec0::1', 'fec0::1', 'fec0::1/128', 1, ['fec0::1'], 'site_local'],
  ['0.0.0.0', '0.0.0.0', '0.0.0.0/32', 1, ['0.0.0.0'], 'private unspecified'],
  ['::', '::', '::/128', 1, ['::'], 'private reserved unspecified'],
  ['240.1.1.1', '240.1.1.1', '240.1.1.1/32', 1, ['240.1.1.1'], 'private reserved'],
  ['192.168.0.1/31', '192.168.0.1/31', '192.168.0.0/31', 2, ['192.168.0.0', '192.168.0.1'], 'private'],
  [
    '10.0.0.0/29',
    '10.0.0.0/29',
    '10.0.0.0/29',
    8,
    ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4', '10.0.0.5', '10.0.0.6'],
    'private',
  ],
];
const PROPS = ['private', 'loopback', 'multicast', 'link_local', 'reserved', 'site_local', 'unspecified'];

describe('the IP library (Python ipaddress)', () => {
  it.each(ROWS)('%s', (input, text, net, size, hosts, props) => {
    const ip = parseIp(input);
    if (!ip) throw new Error(`${input} did not parse`);
    expect(ipText(ip)).toBe(text);
    expect(formatNet(networkOf(ip))).toBe(net);
    expect(formatNet(parseNet(input))).toBe(net);
    expect(networkSize(ip)).toBe(size);
    expect(networkHosts(ip, 16) ?? null).toEqual(hosts);
    const set = PROPS.filter((p) => ipProperty(ip, p));
    expect(set.join(' ')).toBe(props);
    expect(ipProperty(ip, 'global')).toBe(
      !props.split(' ').includes('private') && !input.startsWith('100.64.'),
    );
  });

  it('refuses what Python refuses', () => {
    for (const bad of ['10.0.0.256', '10.0.0.1/33', '::1/129', '10.0.0.1/8/1', 'host', '10.0.0.1/x'])
      expect(parseIp(bad)).toBeUndefined();
    expect(parseIp(42)).toBeUndefined();
    expect(() => parseNet('10.0.0.1/255.0.255.0')).toThrow("'255.0.255.0' is not a valid netmask");
  });

  it('tells membership of an address in an interface network, across families never', () => {
    const net = parseIp('192.168.1.10/24')!;
    expect(inNetwork(parseIp('192.168.1.200')!, net)).toBe(true);
    expect(inNetwork(parseIp('192.168.2.1')!, net)).toBe(false);
    expect(inNetwork(parseIp('::1')!, net)).toBe(false);
  });
});
