import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.js';

describe('clientAddress', () => {
  it('keeps IPv4 (also IPv4-mapped), counts IPv6 by its /64, keeps anything else apart', () => {
    const cases: [string | undefined, string][] = [
      ['127.0.0.1', 'ipv4:127.0.0.1'],
      ['::ffff:10.1.2.3', 'ipv4:10.1.2.3'],
      ['2001:db8:1:2:aaaa::1', 'ipv6:2001:db8:1:2::/64'],
      ['2001:db8:1:2:bbbb:cccc:dddd:eeee', 'ipv6:2001:db8:1:2::/64'],
      ['2001:db8::1', 'ipv6:2001:db8:0:0::/64'],
      ['::1', 'ipv6:0:0:0:0::/64'],
      ['fe80::1%eth0', 'ipv6:fe80:0:0:0::/64'],
      [undefined, 'other:'],
      ['/run/sock', 'other:/run/sock'],
    ];
    for (const [ip, key] of cases) expect(clientAddress(ip), String(ip)).toBe(key);
  });
});
