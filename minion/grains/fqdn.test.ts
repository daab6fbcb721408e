import { describe, expect, it } from 'vitest';
import { fqdnIpGrains, fqdnsGrain, hostsAddresses } from './fqdn.js';

const hosts = [
  '127.0.0.1 localhost',
  '127.0.0.1 vm # this host',
  '192.0.2.7 web1.example.com web1',
  '2001:db8::7 web1.example.com',
  '192.0.2.8 db1',
  '',
].join('\n');

describe('fqdn grains from /etc/hosts', () => {
  it('lists the addresses of a name by family', () => {
    expect(hostsAddresses(hosts, 'vm', 4)).toEqual(['127.0.0.1']);
    expect(hostsAddresses(hosts, 'vm', 6)).toEqual([]);
    expect(hostsAddresses(hosts, 'web1', 6)).toEqual([]);
    expect(hostsAddresses(hosts, 'web1.example.com', 6)).toEqual(['2001:db8::7']);
  });
  it('gives fqdn_ip4 and fqdn_ip6 as Salt does, empty for a family without addresses', () => {
    expect(fqdnIpGrains('vm', ['127.0.0.1'], ['::1'], hosts)).toEqual({
      fqdn_ip4: ['127.0.0.1'],
      fqdn_ip6: [],
    });
    expect(fqdnIpGrains('web1.example.com', [], ['::1'], hosts)).toEqual({
      fqdn_ip4: [],
      fqdn_ip6: ['2001:db8::7'],
    });
    expect(fqdnIpGrains('nowhere', ['127.0.0.1'], [], hosts)).toEqual({ fqdn_ip4: [], fqdn_ip6: [] });
  });
  it('gives fqdns from the non-loopback addresses, sorted', () => {
    expect(fqdnsGrain(['127.0.0.1', '192.0.2.8', '192.0.2.7', '::1', '192.0.2.9'], hosts)).toEqual({
      fqdns: ['db1', 'web1.example.com'],
    });
  });
});
