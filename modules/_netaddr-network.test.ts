import { describe, expect, it } from 'vitest';
import { firstOf, format6, formatIn, lastOf, netmaskOf, parseNetwork } from './_netaddr-network.js';

const show = (cidr: string) => {
  const n = parseNetwork(cidr);
  return [formatIn(n, firstOf(n)), formatIn(n, netmaskOf(n)), formatIn(n, lastOf(n))];
};

describe('netaddr 0.8 networks (measured against python-netaddr on this machine)', () => {
  it('reads partial IPv4, netmasks and hostmasks as prefixes', () => {
    expect(show('10/8')).toEqual(['10.0.0.0', '255.0.0.0', '10.255.255.255']);
    expect(show('192.168/16')).toEqual(['192.168.0.0', '255.255.0.0', '192.168.255.255']);
    expect(show('01.02.03.04/24')).toEqual(['1.2.3.0', '255.255.255.0', '1.2.3.255']);
    expect(show('192.168.1.9/0.0.0.255')).toEqual(['192.168.1.0', '255.255.255.0', '192.168.1.255']);
    expect(show('1.2.3.4/ +2_4')).toEqual(['1.2.3.0', '255.255.255.0', '1.2.3.255']);
    expect(parseNetwork('1.2.3.4').prefix).toBe(32);
  });

  it('rejects what netaddr rejects, with its words', () => {
    for (const bad of [
      '',
      'foo',
      '1.2.3.256/24',
      '1.2.3.4.5',
      '1.2.3./8',
      '1.2.3.4/33',
      '1.2.3.4/255.0.255.0',
      '::/129',
      '1:2:3:4:5:6:7::8/64',
      'fe80::1%eth0',
    ])
      expect(() => parseNetwork(bad), bad).toThrow(`invalid IPNetwork ${bad}`);
    expect(() => parseNetwork(10)).toThrow("unexpected type <class 'int'> for addr arg");
    expect(() => parseNetwork(null)).toThrow("unexpected type <class 'NoneType'> for addr arg");
  });

  it("writes IPv6 as glibc's inet_ntop", () => {
    expect(format6(0n)).toBe('::');
    expect(format6(1n)).toBe('::1');
    expect(format6(0x20003n)).toBe('::0.2.0.3');
    expect(format6(0xffff0a000001n)).toBe('::ffff:10.0.0.1');
    expect(format6(0x1ffff0a000001n)).toBe('::1:ffff:a00:1');
    expect(format6(0xffffn << 96n)).toBe('0:ffff::');
    expect(show('2001:db8::/::ffff')[1]).toBe('ffff:ffff:ffff:ffff:ffff:ffff:ffff:0');
    expect(show('2001:DB8::1/64')).toEqual([
      '2001:db8::',
      'ffff:ffff:ffff:ffff::',
      '2001:db8::ffff:ffff:ffff:ffff',
    ]);
  });
});
