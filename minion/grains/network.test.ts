import { describe, expect, it } from 'vitest';
import { hostnameGrains, hostsCanonicalName, networkGrains, sortAddresses } from './network.js';

describe('host name grains (no DNS)', () => {
  const hosts = '127.0.0.1 localhost\n127.0.1.1 web1.example.com web1 # the host\n';
  it('takes the canonical name from /etc/hosts', () => {
    expect(hostsCanonicalName(hosts, 'web1')).toBe('web1.example.com');
    expect(hostnameGrains('web1', hosts)).toEqual({
      localhost: 'web1',
      fqdn: 'web1.example.com',
      host: 'web1',
      domain: 'example.com',
    });
  });
  it('falls back on the host name', () => {
    expect(hostnameGrains('box', '')).toEqual({ localhost: 'box', fqdn: 'box', host: 'box', domain: '' });
    expect(hostnameGrains('a.b.c', '')).toMatchObject({ host: 'a', domain: 'b.c' });
  });
});

describe('interface grains', () => {
  it('sorts addresses numerically, as Python ipaddress does', () => {
    expect(sortAddresses(['10.0.0.2', '9.1.1.1', '127.0.0.1', '10.0.0.2'], 4)).toEqual([
      '9.1.1.1',
      '10.0.0.2',
      '127.0.0.1',
    ]);
    expect(sortAddresses(['fe80::1', '::1', '2001:db8::1', '::ffff:1.2.3.4'], 6)).toEqual([
      '::1',
      '::ffff:1.2.3.4',
      '2001:db8::1',
      'fe80::1',
    ]);
  });

  it('lists addresses per interface and MACs', () => {
    const info = (address: string, family: 'IPv4' | 'IPv6', mac: string) => ({
      address,
      family,
      mac,
      netmask: '',
      internal: false,
      cidr: null,
      ...(family === 'IPv6' ? { scopeid: 0 } : {}),
    });
    const g = networkGrains(
      {
        lo: [info('127.0.0.1', 'IPv4', '00:00:00:00:00:00'), info('::1', 'IPv6', '00:00:00:00:00:00')],
        eth0: [info('10.1.2.3', 'IPv4', 'aa:bb:cc:dd:ee:ff'), info('fe80::1', 'IPv6', 'aa:bb:cc:dd:ee:ff')],
      } as never,
      '/nonexistent',
    );
    expect(g.ipv4).toEqual(['10.1.2.3', '127.0.0.1']);
    expect(g.ipv6).toEqual(['::1', 'fe80::1']);
    expect(g.ip_interfaces).toEqual({ eth0: ['10.1.2.3', 'fe80::1'], lo: ['127.0.0.1', '::1'] });
    expect(g.ip4_interfaces).toEqual({ eth0: ['10.1.2.3'], lo: ['127.0.0.1'] });
    expect(g.ip6_interfaces).toEqual({ eth0: ['fe80::1'], lo: ['::1'] });
    expect(g.hwaddr_interfaces).toEqual({ eth0: 'aa:bb:cc:dd:ee:ff', lo: '00:00:00:00:00:00' });
  });
});
